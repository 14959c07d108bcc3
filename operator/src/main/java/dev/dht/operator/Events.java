package dev.dht.operator;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Posts core/v1 Events about our custom resources, as {@code kubectl describe} shows them. */
public final class Events {
  private static final Logger LOG = LoggerFactory.getLogger(Events.class);
  public static final String COMPONENT = "dht-operator";
  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";

  /** One event to post; type is Normal or Warning. */
  public record Transition(String type, String reason, String message) {}

  private Events() {}

  /** Posts the events; a failure is logged, never fails the reconciliation. */
  public static void emit(
      KubernetesClient client, HasMetadata involved, Iterable<Transition> events, Instant now) {
    String timestamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
    var meta = involved.getMetadata();
    for (var event : events) {
      var body =
          new EventBuilder()
              .withNewMetadata()
              .withName(meta.getName() + "." + UUID.randomUUID().toString().substring(0, 8))
              .withNamespace(meta.getNamespace())
              .endMetadata()
              .withInvolvedObject(
                  new ObjectReferenceBuilder()
                      .withApiVersion(involved.getApiVersion())
                      .withKind(involved.getKind())
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
