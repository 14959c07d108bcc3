package dev.dht.operator.users;

import dev.dht.contract.UsersDocument;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.kube.SecretTexts;
import dev.dht.operator.tls.CertManagerCertificate;
import dev.dht.operator.tls.CertificateAndKey;
import dev.dht.operator.tls.ClusterCa;
import dev.dht.operator.tls.IssuerRef;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.IssuedCertificate;
import dev.dht.pki.Pem;
import dev.dht.pki.Signatures;
import dev.dht.pki.Validity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A user's client certificate ({@code spec.clientCertificate}): what the Secret {@code <user>-tls}
 * holds when the operator's CA issues it ({@value #CERT}, {@value #KEY}, and the bundle that
 * verifies the nodes, {@value #CA}), and when the operator's CA issues a new one. Pure.
 *
 * <p>The certificate's subject CN is {@link #commonName}, the name under which the users file
 * admits it; it is a client certificate only, valid 90 days (never past its CA's end), and renewed
 * 30 days before its end, when it is not the current CA's (a CA rotation: it is issued again while
 * the previous CA is still trusted), or when the Secret holds anything else. On a cluster whose
 * certificates come from cert-manager, the user gets a cert-manager Certificate asking for the
 * same.
 */
public final class UserCertificate {
  static final String CERT = "tls.crt";
  static final String KEY = "tls.key";
  static final String CA = "ca.crt";
  static final Duration LIFETIME = Duration.ofDays(90);
  static final Duration RENEW_BEFORE = Duration.ofDays(30);

  /** Certificates start a little in the past: a node whose clock lags still accepts them. */
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  /** The label that names the user a certificate's Secret belongs to. */
  static final String LABEL = "dht.dev/user-certificate";

  private UserCertificate() {}

  public static String nameOf(String user) {
    return user + "-tls";
  }

  /**
   * The subject CN of the user's certificates: {@code dht-user.<name>.<first 8 hex digits of its
   * UID>}. The UID is there so that deleting a user revokes its certificates for good: a user made
   * again under the same name is another user, whose name the nodes admit, not the old one's.
   */
  static String commonName(DhtUser user) {
    String uid = user.getMetadata().getUid();
    String name = UsersDocument.USER_COMMON_NAME_PREFIX + user.getMetadata().getName();
    return uid == null ? name : name + "." + uid.replace("-", "").substring(0, 8);
  }

  /** Why the Secret needs a new certificate; null when the one it holds is good. */
  public static String whyNew(Secret secret, DhtUser user, ClusterCa ca, Instant now) {
    var held = held(secret);
    if (held == null) {
      return "there is none";
    }
    var certificate = held.certificate();
    if (!commonName(user).equals(CertificateInfo.of(certificate).commonName())) {
      return "it names someone else";
    }
    if (!Signatures.issuedBy(certificate, ca.current().certificate())) {
      return "it is not the current CA's";
    }
    if (!certificate.getNotAfter().toInstant().isAfter(now.plus(RENEW_BEFORE))) {
      return "it ends within " + RENEW_BEFORE.toDays() + " days";
    }
    return null;
  }

  /** Whether the bundle in the Secret is not the cluster's (a rotation changed it). */
  public static boolean trustChanged(Secret secret, ClusterCa ca) {
    return !ca.trust().pem().equals(SecretTexts.text(secret, CA));
  }

  /** A new certificate from the cluster's current CA, with the bundle, in a Secret for the user. */
  public static Secret issue(DhtUser user, Secret existing, ClusterCa ca, Instant now) {
    var issued =
        ca.current()
            .issueClient(
                commonName(user),
                new Validity(now.minus(CLOCK_SKEW), now.plus(LIFETIME))
                    .endingNoLaterThan(ca.current().certificate().getNotAfter().toInstant()));
    return withContent(user, existing, issued, ca);
  }

  /** The Secret with the same certificate and the cluster's bundle of now. */
  public static Secret withTrust(DhtUser user, Secret existing, ClusterCa ca) {
    return withContent(user, existing, held(existing), ca);
  }

  /** The cert-manager Certificate of the user on a cluster with {@code spec.tls.issuerRef}. */
  public static GenericKubernetesResource certManagerCertificate(DhtUser user, IssuerRef issuer) {
    String name = user.getMetadata().getName();
    return CertManagerCertificate.forClient(
        user, nameOf(name), commonName(user), labels(name), issuer);
  }

  /** What that Certificate asks for. */
  public static Map<String, Object> certManagerSpec(DhtUser user, IssuerRef issuer) {
    return CertManagerCertificate.clientSpec(
        nameOf(user.getMetadata().getName()), commonName(user), issuer);
  }

  /**
   * Whether the Secret is the user's: made by the operator for it, or written by cert-manager for
   * the user's own Certificate ({@code certificate}, null when there is none).
   */
  public static boolean isUsers(
      Secret secret, DhtUser user, GenericKubernetesResource certificate) {
    return Owners.isControlledBy(secret, user)
        || (certificate != null
            && Owners.isControlledBy(certificate, user)
            && CertManagerCertificate.wrote(secret, certificate));
  }

  /** When the certificate in the Secret ends; null when it holds none. */
  public static Instant notAfter(Secret secret) {
    var held = held(secret);
    return held == null ? null : held.certificate().getNotAfter().toInstant();
  }

  private static Secret withContent(
      DhtUser user, Secret existing, IssuedCertificate certificate, ClusterCa ca) {
    var texts = new LinkedHashMap<String, String>();
    texts.put(CERT, Pem.certificate(certificate.certificate()));
    texts.put(KEY, Pem.privateKey(certificate.privateKey()));
    texts.put(CA, ca.trust().pem());
    var data = SecretTexts.encode(texts);
    if (existing != null) {
      return new SecretBuilder(existing).withData(data).withStringData(null).build();
    }
    var metadata = user.getMetadata();
    return new SecretBuilder()
        .withNewMetadata()
        .withName(nameOf(metadata.getName()))
        .withNamespace(metadata.getNamespace())
        .withLabels(labels(metadata.getName()))
        .withOwnerReferences(List.of(Owners.controller(user)))
        .endMetadata()
        .withType("kubernetes.io/tls")
        .withData(data)
        .build();
  }

  private static Map<String, String> labels(String user) {
    return Map.of(LABEL, user, "app.kubernetes.io/name", "dht");
  }

  private static IssuedCertificate held(Secret secret) {
    return CertificateAndKey.read(SecretTexts.text(secret, CERT), SecretTexts.text(secret, KEY));
  }
}
