package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** A DhtCluster's spec.backup: where its DhtBackups go, and how fast the nodes upload. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class BackupSpec {
  /**
   * The DhtCluster condition that says whether its spec.backup can be used (its reconciler's; a
   * backup waits while it is False).
   */
  public static final String CONDITION = "BackupStore";

  /** The default upload bandwidth of a node: 20 MiB/s. */
  public static final long DEFAULT_UPLOAD_BYTES_PER_SECOND = 20L << 20;

  @Required
  @JsonPropertyDescription("The object store; path defaults to <namespace>/<cluster name>.")
  private ObjectStoreSpec objectStore;

  @Default("20971520")
  @Min(0)
  @JsonPropertyDescription(
      "The most each node uploads per second during a backup, in bytes (0: no limit). Default:"
          + " 20971520 (20 MiB/s). The nodes re-read it at each backup.")
  @Builder.Default
  private Long uploadBytesPerSecond = DEFAULT_UPLOAD_BYTES_PER_SECOND;

  /** The store's path, or {@code <namespace>/<cluster>} when the spec leaves it out. */
  public String pathOrDefault(String namespace, String cluster) {
    return objectStore.getPath() != null ? objectStore.getPath() : namespace + "/" + cluster;
  }
}
