package dev.dht.contract.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where a cluster's backups go, or where a restore reads one: an S3-compatible object store. The
 * operator writes it as JSON into the cluster's ConfigMap; a node re-reads it at each backup, so a
 * change needs no restart. The credentials are files in {@code credentialsDir} ({@code
 * access-key-id}, {@code secret-access-key}: the keys of the user's Secret, mounted), re-read at
 * each use too; without a directory the S3 client's default chain applies (environment, instance
 * profile).
 *
 * @param endpoint the store's URL ({@code https://s3.eu-west-1.amazonaws.com}, {@code
 *     http://seaweedfs.store:8333}); null: AWS S3 in {@code region}
 * @param region the signing region ({@code us-east-1} for most other stores)
 * @param bucket the bucket, which must exist
 * @param prefix where in the bucket this cluster's backups live, without leading or trailing slash
 *     ("" for the bucket's root)
 * @param pathStyle {@code http://host/bucket/key} rather than {@code http://bucket.host/key}: what
 *     most stores besides AWS need
 * @param uploadBytesPerSecond the most a node uploads per second (0: no limit)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ObjectStoreSettings(
    String endpoint,
    String region,
    String bucket,
    String prefix,
    boolean pathStyle,
    String credentialsDir,
    long uploadBytesPerSecond) {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** The largest settings document a node reads. */
  public static final int MAX_BYTES = 16 << 10;

  public ObjectStoreSettings {
    if (endpoint != null) {
      try {
        URI uri = new URI(endpoint);
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
            || uri.getHost() == null) {
          throw new IllegalArgumentException("endpoint must be an http(s) URL, got " + endpoint);
        }
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("endpoint is not a URL: " + endpoint, e);
      }
    }
    region = region == null || region.isBlank() ? "us-east-1" : region;
    if (!region.matches("[a-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("region must be like us-east-1, got " + region);
    }
    // S3's bucket naming rules (lower case, digits, dots and dashes, 3 to 63)
    if (bucket == null || !bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
      throw new IllegalArgumentException("bucket must be a valid S3 bucket name, got " + bucket);
    }
    prefix = prefix == null ? "" : prefix;
    if (prefix.startsWith("/")
        || prefix.endsWith("/")
        || prefix.contains("//")
        || prefix.length() > 512
        || !prefix.matches("[A-Za-z0-9._/=-]*")
        || (prefix + "/").matches("(.*/)?\\.{1,2}/.*")) {
      throw new IllegalArgumentException(
          "prefix must be letters, digits and . _ - = separated by single slashes, without a"
              + " leading or trailing slash or a . or .. segment, got '"
              + prefix
              + "'");
    }
    if (uploadBytesPerSecond < 0) {
      throw new IllegalArgumentException("uploadBytesPerSecond must be >= 0");
    }
  }

  /** The settings in {@code json}; IllegalArgumentException with the reason if not valid. */
  public static ObjectStoreSettings parse(String json) {
    if (json.length() > MAX_BYTES) {
      throw new IllegalArgumentException("object store settings over " + MAX_BYTES + " bytes");
    }
    try {
      return JSON.readValue(json, ObjectStoreSettings.class);
    } catch (JsonProcessingException e) {
      Throwable cause = e.getCause() instanceof IllegalArgumentException iae ? iae : e;
      throw new IllegalArgumentException(
          "not valid object store settings: " + cause.getMessage(), e);
    }
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The object name of {@code relative} under this cluster's prefix. */
  public String key(String relative) {
    return prefix.isEmpty() ? relative : prefix + "/" + relative;
  }
}
