package dev.dht.operator.cluster;

import static dev.dht.operator.cluster.Conditions.DEGRADED;
import static dev.dht.operator.cluster.Conditions.PROGRESSING;
import static dev.dht.operator.cluster.Conditions.READY;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Kubernetes Events for notable transitions of a cluster's conditions. */
final class ClusterEvents {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterEvents.class);
  static final String COMPONENT = "dht-operator";

  /** One event to emit; type is Normal or Warning. */
  record Transition(String type, String reason, String message) {}

  private ClusterEvents() {}

  /** The events implied by going from the previous conditions to the next ones. Pure. */
  static List<Transition> between(List<Condition> before, List<Condition> after) {
    var events = new ArrayList<Transition>();
    if (!Conditions.isTrue(before, READY) && Conditions.isTrue(after, READY)) {
      events.add(new Transition("Normal", "ClusterReady", message(after, READY)));
    }
    if (!Conditions.isTrue(before, DEGRADED) && Conditions.isTrue(after, DEGRADED)) {
      events.add(new Transition("Warning", "Degraded", message(after, DEGRADED)));
    }
    if (Conditions.isTrue(before, DEGRADED) && !Conditions.isTrue(after, DEGRADED)) {
      events.add(new Transition("Normal", "Recovered", "no longer degraded"));
    }
    boolean wasPaused = isPaused(before);
    boolean isPaused = isPaused(after);
    if (!wasPaused && isPaused) {
      events.add(new Transition("Normal", "ReconciliationPaused", message(after, PROGRESSING)));
    } else if (wasPaused && !isPaused) {
      events.add(new Transition("Normal", "ReconciliationResumed", "reconciliation resumed"));
    }
    return events;
  }

  private static boolean isPaused(List<Condition> conditions) {
    return Conditions.find(conditions, PROGRESSING)
        .map(c -> "Paused".equals(c.getReason()))
        .orElse(false);
  }

  private static String message(List<Condition> conditions, String type) {
    return Conditions.find(conditions, type).map(Condition::getMessage).orElse("");
  }

  /** Posts the events; a failure is logged, never fails the reconciliation. */
  static void emit(
      KubernetesClient client, DhtCluster cluster, List<Transition> events, Instant now) {
    String timestamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
    var meta = cluster.getMetadata();
    for (var event : events) {
      var body =
          new EventBuilder()
              .withNewMetadata()
              .withName(meta.getName() + "." + UUID.randomUUID().toString().substring(0, 8))
              .withNamespace(meta.getNamespace())
              .endMetadata()
              .withInvolvedObject(
                  new ObjectReferenceBuilder()
                      .withApiVersion(cluster.getApiVersion())
                      .withKind(cluster.getKind())
                      .withName(meta.getName())
                      .withNamespace(meta.getNamespace())
                      .withUid(meta.getUid())
                      .withResourceVersion(meta.getResourceVersion())
                      .build())
              .withType(event.type())
              .withReason(event.reason())
              .withMessage(event.message())
              .withNewSource()
              .withComponent(COMPONENT)
              .endSource()
              .withReportingComponent(COMPONENT)
              .withReportingInstance(
                  Optional.ofNullable(System.getenv("HOSTNAME")).orElse(COMPONENT))
              .withFirstTimestamp(timestamp)
              .withLastTimestamp(timestamp)
              .withCount(1)
              .build();
      try {
        client.v1().events().inNamespace(meta.getNamespace()).resource(body).create();
      } catch (KubernetesClientException e) {
        LOG.warn(
            "cannot record event {} for {}: {}", event.reason(), meta.getName(), e.getMessage());
      }
    }
  }
}
