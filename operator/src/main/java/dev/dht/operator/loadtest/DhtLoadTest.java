package dev.dht.operator.loadtest;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.cluster.DhtCluster;
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

/** A load test against a dht cluster: see {@link #DESCRIPTION}. */
@Group(DhtCluster.GROUP)
@Version(DhtCluster.VERSION)
@ShortNames("dhtlt")
@SchemaCustomizer(
    value = MergePatchCustomizer.class,
    input = "{\"description\": \"" + DhtLoadTest.DESCRIPTION + "\"}")
@ValidationRule(
    value = "self.metadata.name.size() <= " + DhtLoadTest.MAX_NAME_LENGTH,
    message =
        "metadata.name must be at most "
            + DhtLoadTest.MAX_NAME_LENGTH
            + " characters: the Job is named <name>-loadgen (a label value, at most 63)")
@AdditionalPrinterColumn(name = "Phase", jsonPath = ".status.phase", type = Type.STRING)
@AdditionalPrinterColumn(name = "Rate", jsonPath = ".spec.rate", type = Type.INTEGER)
@AdditionalPrinterColumn(
    name = "Achieved",
    jsonPath = ".status.results.achievedRate",
    type = Type.NUMBER)
@AdditionalPrinterColumn(
    name = "P99",
    jsonPath = ".status.results.latencyMs.p99",
    type = Type.NUMBER)
@AdditionalPrinterColumn(name = "Warm", jsonPath = ".status.results.warmedUp", type = Type.BOOLEAN)
@AdditionalPrinterColumn(name = "Verdict", jsonPath = ".status.verdict", type = Type.STRING)
@AdditionalPrinterColumn(
    name = "Progress",
    jsonPath = ".status.progress.summary",
    type = Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp", type = Type.DATE)
public class DhtLoadTest extends CustomResource<DhtLoadTestSpec, DhtLoadTestStatus>
    implements Namespaced {
  static final int MAX_NAME_LENGTH = 55;

  /**
   * The kind's description in the CRD ({@code kubectl explain dhtlt}), set by the
   * {@code @SchemaCustomizer} above: plain text, no double quotes or backslashes (JSON).
   */
  public static final String DESCRIPTION =
      "A constant-rate load test against a DhtCluster. The operator runs the load generator once"
          + " as a Job and publishes its results, a verdict against the thresholds and a report"
          + " ConfigMap in the status.";

  @Override
  @JsonPropertyDescription(
      "What to run: the target, the workload, rate and duration, the load generator's pods and"
          + " the verdict's thresholds. Immutable: create a new DhtLoadTest to run again.")
  public DhtLoadTestSpec getSpec() {
    return super.getSpec();
  }

  @Override
  @JsonPropertyDescription(
      "What happened to the run, written by the operator: phase, progress, results, verdict,"
          + " report, conditions.")
  public DhtLoadTestStatus getStatus() {
    return super.getStatus();
  }
}
