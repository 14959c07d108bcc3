package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.contract.backup.ObjectStoreSettings;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * An S3-compatible object store, as a DhtCluster's spec.backup and a restore's source name it; the
 * nodes get it as {@link ObjectStoreSettings} (with the credentials Secret mounted, never read by
 * the operator).
 */
@JsonIgnoreProperties(ignoreUnknown = true) // in a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class ObjectStoreSpec {
  @JsonPropertyDescription(
      "The store's URL, such as http://seaweedfs.storage:8333 or https://storage.googleapis.com."
          + " Unset: AWS S3 in region.")
  @Pattern("^https?://[^/?#\\s]+(/[^?#\\s]*)?$")
  private String endpoint;

  @JsonPropertyDescription("The signing region. Default: us-east-1 (what most other stores take).")
  @Pattern("^[a-z0-9-]{1,64}$")
  private String region;

  @Required
  @Pattern("^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
  @JsonPropertyDescription("The bucket, which must exist.")
  private String bucket;

  @JsonPropertyDescription(
      "Where in the bucket the backups live, without leading or trailing slash. Default (in"
          + " spec.backup): <namespace>/<cluster name>.")
  @Pattern("^([A-Za-z0-9._=-]+(/[A-Za-z0-9._=-]+)*)?$")
  @Size(max = 512)
  private String path;

  @JsonPropertyDescription(
      "Address the bucket in the path (http://host/bucket/key) rather than in the host name:"
          + " what MinIO, SeaweedFS and Ceph need. Default: true when an endpoint is set, false"
          + " for AWS S3.")
  private Boolean pathStyle;

  @JsonPropertyDescription(
      "A Secret in this namespace with the keys access-key-id and secret-access-key, mounted"
          + " into the node pods (the operator never reads it). Unset: the S3 client's default"
          + " chain in the pods (environment, web identity, instance profile).")
  @Pattern("^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$")
  @Size(max = 253)
  private String credentialsSecret;

  /**
   * Whether {@code a} and {@code b} name the same objects: endpoint, bucket and path (credentials,
   * region, addressing may differ); false if either is null.
   */
  public static boolean sameObjects(ObjectStoreSpec a, ObjectStoreSpec b) {
    return a != null
        && b != null
        && Objects.equals(a.getEndpoint(), b.getEndpoint())
        && Objects.equals(a.getBucket(), b.getBucket())
        && Objects.equals(
            Objects.requireNonNullElse(a.getPath(), ""),
            Objects.requireNonNullElse(b.getPath(), ""));
  }

  /** Whether the bucket is addressed in the path: as set, else when an endpoint is set. */
  public boolean pathStyleOrDefault() {
    return pathStyle != null ? pathStyle : endpoint != null;
  }

  /** The nodes' settings of this store, under {@code path}, reading keys from {@code dir}. */
  public ObjectStoreSettings settings(
      String path, String credentialsDir, long uploadBytesPerSecond) {
    return new ObjectStoreSettings(
        endpoint,
        region,
        bucket,
        path,
        pathStyleOrDefault(),
        credentialsSecret == null ? null : credentialsDir,
        uploadBytesPerSecond);
  }
}
