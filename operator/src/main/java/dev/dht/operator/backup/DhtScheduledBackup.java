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
 * Backups of a DhtCluster on a cron schedule: a {@link DhtBackup} at each time, the newest kept and
 * the older ones deleted (with the store's files no kept backup needs).
 */
@Group(DhtScheduledBackup.GROUP)
@Version(DhtScheduledBackup.VERSION)
@ShortNames("dhtsb")
@SchemaCustomizer(
    value = MergePatchCustomizer.class,
    input = "{\"description\": \"" + DhtScheduledBackup.DESCRIPTION + "\"}")
@AdditionalPrinterColumn(name = "Cluster", jsonPath = ".spec.cluster", type = Type.STRING)
@AdditionalPrinterColumn(name = "Schedule", jsonPath = ".spec.schedule", type = Type.STRING)
@AdditionalPrinterColumn(
    name = "Last Success",
    jsonPath = ".status.lastSuccessfulBackup",
    type = Type.STRING)
@AdditionalPrinterColumn(name = "Next", jsonPath = ".status.nextScheduleTime", type = Type.DATE)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
@ValidationRule(
    value = "self.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
    message = "the name must be a DNS-1123 label: it starts its backups' names")
@ValidationRule(
    value = "size(self.metadata.name) <= 48",
    message =
        "the name must be at most 48 characters: its backups are named <name>-<yyyymmddhhmmss>")
public class DhtScheduledBackup
    extends CustomResource<DhtScheduledBackupSpec, DhtScheduledBackupStatus> implements Namespaced {
  public static final String GROUP = "dht.dev";
  public static final String VERSION = "v1alpha1";

  /** The kind's description in the CRD: plain text, no double quotes or backslashes (JSON). */
  public static final String DESCRIPTION =
      "Backups of a DhtCluster of this namespace on a cron schedule (UTC): a DhtBackup named"
          + " <name>-<yyyymmddhhmmss> at each time, the newest keep completed ones kept and older"
          + " ones deleted, with the files in the store that no kept backup needs. A failed"
          + " backup never holds up the next one.";

  @Override
  @JsonPropertyDescription("Which cluster, when, and how many backups to keep.")
  public DhtScheduledBackupSpec getSpec() {
    return super.getSpec();
  }

  @Override
  @JsonPropertyDescription("The last and next backups.")
  public DhtScheduledBackupStatus getStatus() {
    return super.getStatus();
  }
}
