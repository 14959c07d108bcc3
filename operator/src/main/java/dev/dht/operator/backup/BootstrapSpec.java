package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** A DhtCluster's spec.bootstrap: what a new cluster starts with. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class BootstrapSpec {
  @JsonPropertyDescription(
      "A complete backup to restore: the cluster's nodes load it, placed by this cluster's own"
          + " replicas and from, before they serve.")
  private Source backup;

  /** Which backup: a DhtBackup of this namespace, or an id in an object store. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @ValidationRule(
      value = "has(self.name) != (has(self.objectStore) && has(self.backupId))",
      message =
          "name a DhtBackup (name), or an object store and a backup id (objectStore, backupId)")
  @ValidationRule(
      value = "!has(self.name) || (!has(self.objectStore) && !has(self.backupId))",
      message = "name excludes objectStore and backupId")
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class Source {
    @JsonPropertyDescription(
        "A completed DhtBackup of this namespace (of any cluster, even one deleted since).")
    private String name;

    @JsonPropertyDescription(
        "The store holding the backup, for a backup of another namespace or Kubernetes cluster;"
            + " path is where that cluster's backups are (its spec.backup path, by default"
            + " <namespace>/<cluster name>), and credentialsSecret is a Secret of this namespace.")
    private ObjectStoreSpec objectStore;

    @JsonPropertyDescription("The backup's id in that store (a DhtBackup's status.backupId).")
    private String backupId;
  }
}
