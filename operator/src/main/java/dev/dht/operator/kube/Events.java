package dev.dht.operator.kube;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts core/v1 Events about our custom resources, as {@code kubectl describe} shows them. An
 * event's name is derived from what it says (object, type, reason, message), so the same event
 * again raises the {@code count} of the first one (and its last timestamp) instead of piling up.
 */
public final class Events {
  private static final Logger LOG = LoggerFactory.getLogger(Events.class);
  public static final String COMPONENT = "dht-operator";
  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";

  /** One event to post; type is Normal or Warning. */
  public record Transition(String type, String reason, String message) {}

  private Events() {}

  /** The event's stable name: the object's name and a hash of what the event says. */
  static String name(HasMetadata involved, Transition event) {
    var meta = involved.getMetadata();
    String what =
        meta.getUid()
            + "\u0000"
            + event.type()
            + "\u0000"
            + event.reason()
            + "\u0000"
            + event.message();
    return meta.getName() + "." + String.format("%016x", hash(what));
  }

  /** 64-bit FNV-1a: stable across JVMs, unlike String.hashCode's 32 bits. */
  private static long hash(String text) {
    long h = 0xcbf29ce484222325L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** Posts the events; a failure is logged, never fails the reconciliation. */
  public static void emit(
      KubernetesClient client, HasMetadata involved, Iterable<Transition> events, Instant now) {
    String timestamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
    var meta = involved.getMetadata();
    for (var event : events) {
      var body =
          new EventBuilder()
              .withNewMetadata()
              .withName(name(involved, event))
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
      var api = client.v1().events().inNamespace(meta.getNamespace());
      try {
        try {
          api.resource(body).create();
        } catch (KubernetesClientException e) {
          if (e.getCode() != 409) {
            throw e;
          }
          api.withName(body.getMetadata().getName())
              .edit(existing -> {
                existing.setCount(existing.getCount() == null ? 2 : existing.getCount() + 1);
                existing.setLastTimestamp(timestamp);
                return existing;
              });
        }
      } catch (KubernetesClientException e) {
        LOG.warn(
            "cannot record event {} for {}: {}", event.reason(), meta.getName(), e.getMessage());
      }
    }
  }
}
