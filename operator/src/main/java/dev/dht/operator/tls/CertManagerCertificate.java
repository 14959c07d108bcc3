package dev.dht.operator.tls;

import dev.dht.operator.kube.Owners;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The cert-manager {@code Certificate} a cluster with {@code spec.tls.issuerRef} asks for, and what
 * cert-manager reports on it. Pure: the desired object and readings of an observed one.
 *
 * <p>The certificate is the one the operator's own CA would issue: every name of {@link
 * NodeDnsNames}, an EC P-256 key in PKCS#8 (a new key on each renewal), usable by a node as a
 * server and, towards its peers, as a client; 90 days, renewed 30 days before its end.
 */
public final class CertManagerCertificate {
  public static final String API_VERSION = "cert-manager.io/v1";
  public static final String KIND = "Certificate";

  /** cert-manager's annotation on the Secret it writes: the Certificate it wrote it for. */
  static final String CERTIFICATE_NAME = "cert-manager.io/certificate-name";

  static final Duration LIFETIME = CertificatePolicy.DEFAULT.certificateLifetime();
  static final Duration RENEW_BEFORE = CertificatePolicy.DEFAULT.certificateRenewBefore();

  private CertManagerCertificate() {}

  /** The Certificate, named as the Secret it fills, owned by the cluster. */
  static GenericKubernetesResource desired(TlsCluster cluster, IssuerRef issuer) {
    return resource(
        cluster.owner(), cluster.secretNames().nodeTls(), cluster.labels(), spec(cluster, issuer));
  }

  /** The spec cert-manager is asked for. */
  static Map<String, Object> spec(TlsCluster cluster, IssuerRef issuer) {
    var spec = common(cluster.secretNames().nodeTls(), issuer);
    spec.put("dnsNames", List.copyOf(cluster.dnsNames()));
    spec.put("usages", List.of("digital signature", "server auth", "client auth"));
    return spec;
  }

  /**
   * A user's client certificate: Secret {@code secretName}, subject CN {@code commonName}, client
   * authentication only; owned by {@code owner} (the user).
   */
  public static GenericKubernetesResource forClient(
      HasMetadata owner,
      String secretName,
      String commonName,
      Map<String, String> labels,
      IssuerRef issuer) {
    return resource(owner, secretName, labels, clientSpec(secretName, commonName, issuer));
  }

  public static Map<String, Object> clientSpec(
      String secretName, String commonName, IssuerRef issuer) {
    var spec = common(secretName, issuer);
    spec.put("commonName", commonName);
    spec.put("usages", List.of("digital signature", "client auth"));
    return spec;
  }

  private static GenericKubernetesResource resource(
      HasMetadata owner, String name, Map<String, String> labels, Map<String, Object> spec) {
    var resource =
        new GenericKubernetesResourceBuilder()
            .withApiVersion(API_VERSION)
            .withKind(KIND)
            .withMetadata(
                new ObjectMetaBuilder()
                    .withName(name)
                    .withNamespace(owner.getMetadata().getNamespace())
                    .withLabels(labels)
                    .withOwnerReferences(Owners.controller(owner))
                    .build())
            .build();
    resource.setAdditionalProperty("spec", spec);
    return resource;
  }

  private static Map<String, Object> common(String secretName, IssuerRef issuer) {
    var spec = new LinkedHashMap<String, Object>();
    spec.put("secretName", secretName);
    spec.put("duration", hours(LIFETIME));
    spec.put("renewBefore", hours(RENEW_BEFORE));
    spec.put(
        "privateKey",
        Map.of("algorithm", "ECDSA", "size", 256, "encoding", "PKCS8", "rotationPolicy", "Always"));
    spec.put(
        "issuerRef",
        Map.of(
            "name", issuer.getName(),
            "kind", Objects.requireNonNullElse(issuer.getKind(), IssuerRef.ISSUER),
            "group", Objects.requireNonNullElse(issuer.getGroup(), IssuerRef.CERT_MANAGER_GROUP)));
    return spec;
  }

  /**
   * Whether cert-manager wrote {@code secret} for {@code certificate}: it names it, and it was made
   * after it (a Secret that was there before was made by someone else, with their key).
   */
  public static boolean wrote(Secret secret, GenericKubernetesResource certificate) {
    var annotations = secret.getMetadata().getAnnotations();
    return certificate != null
        && annotations != null
        && certificate.getMetadata().getName().equals(annotations.get(CERTIFICATE_NAME))
        && !Instant.parse(secret.getMetadata().getCreationTimestamp())
            .isBefore(Instant.parse(certificate.getMetadata().getCreationTimestamp()));
  }

  /**
   * Whether the observed Certificate's spec asks for what {@code wanted} does. Fields cert-manager
   * or an admission webhook may add (defaults) do not count; what the operator sets must be equal.
   */
  public static boolean asksFor(GenericKubernetesResource observed, Map<String, Object> wanted) {
    if (!(observed.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)) {
      return false;
    }
    return wanted.entrySet().stream().allMatch(e -> sameJson(e.getValue(), spec.get(e.getKey())));
  }

  /** Numbers compare by value: a size read back from JSON may be a Long, an Integer or a Double. */
  private static boolean sameJson(Object wanted, Object observed) {
    if (wanted instanceof Number w && observed instanceof Number o) {
      return w.doubleValue() == o.doubleValue();
    }
    if (wanted instanceof Map<?, ?> w && observed instanceof Map<?, ?> o) {
      return w.entrySet().stream().allMatch(e -> sameJson(e.getValue(), o.get(e.getKey())));
    }
    if (wanted instanceof List<?> w && observed instanceof List<?> o) {
      if (w.size() != o.size()) {
        return false;
      }
      for (int i = 0; i < w.size(); i++) {
        if (!sameJson(w.get(i), o.get(i))) {
          return false;
        }
      }
      return true;
    }
    return Objects.equals(wanted, observed);
  }

  /**
   * cert-manager's Ready condition of the observed Certificate: its status and message; {@code
   * Unknown} with no message while it has none.
   */
  static Readiness readiness(GenericKubernetesResource observed) {
    if (observed != null
        && observed.getAdditionalProperties().get("status") instanceof Map<?, ?> status
        && status.get("conditions") instanceof List<?> conditions) {
      for (Object item : conditions) {
        if (item instanceof Map<?, ?> condition && "Ready".equals(condition.get("type"))) {
          return new Readiness(
              "True".equals(condition.get("status")),
              Objects.toString(condition.get("reason"), ""),
              Objects.toString(condition.get("message"), ""));
        }
      }
    }
    return new Readiness(false, "", "");
  }

  /** cert-manager's Ready condition: whether the Secret holds what the Certificate asks for. */
  record Readiness(boolean ready, String reason, String message) {
    String describe() {
      return message.isEmpty() ? "no Ready condition yet" : reason + ": " + message;
    }
  }

  private static String hours(Duration duration) {
    return duration.toHours() + "h";
  }
}
