package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.Type;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer;
import io.fabric8.crdv2.generator.v1.SchemaCustomizer.MergePatchCustomizer;
import io.fabric8.generator.annotation.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * One backup of a DhtCluster to its object store (spec.backup of the cluster): every node uploads a
 * checkpoint of its data, and the backup completes once all have.
 */
@Group(DhtBackup.GROUP)
@Version(DhtBackup.VERSION)
@ShortNames("dhtbackup")
@SchemaCustomizer(
    value = MergePatchCustomizer.class,
    input = "{\"description\": \"" + DhtBackup.DESCRIPTION + "\"}")
@AdditionalPrinterColumn(name = "Cluster", jsonPath = ".spec.cluster", type = Type.STRING)
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = Type.STRING)
@AdditionalPrinterColumn(name = "Bytes", jsonPath = ".status.bytes", type = Type.INTEGER)
@AdditionalPrinterColumn(name = "Uploaded", jsonPath = ".status.bytesUploaded", type = Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Verified",
    jsonPath = ".status.verification.phase",
    type = Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@ValidationRule(
    value = "self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
    message = "the name must be a DNS-1123 label: it is the backup's id in the store")
@ValidationRule(
    value = "size(self.metadata.name) <= 63",
    message = "the name must be at most 63 characters: it is the backup's id in the store")
public class DhtBackup extends CustomResource<DhtBackupSpec, DhtBackupStatus>
    implements Namespaced {
  public static final String GROUP = "dht.dev";
  public static final String VERSION = "v1alpha1";

  /** The kind's description in the CRD: plain text, no double quotes or backslashes (JSON). */
  public static final String DESCRIPTION =
      "One backup of a DhtCluster of this namespace to the object store of its spec.backup,"
          + " taken while the cluster serves. Every write acknowledged before the backup started"
          + " is in it, with its version, and deletes as tombstones. Deleting the DhtBackup"
          + " deletes the backup from the store (files other backups need stay).";

  @Override
  @JsonPropertyDescription("Which cluster to back up, and whether to verify the backup.")
  public DhtBackupSpec getSpec() {
    return super.getSpec();
  }

  @Override
  @JsonPropertyDescription(
      "Where the backup is, how far it got, what it holds, and its verification.")
  public DhtBackupStatus getStatus() {
    return super.getStatus();
  }

  /** The backup's cluster, or null if the spec names none. */
  public String clusterName() {
    return getSpec() == null ? null : getSpec().getCluster();
  }

  /** The backup's id in the store: its name. */
  public String backupId() {
    return getMetadata().getName();
  }
}
