package dev.dht.operator.tls;

import dev.dht.operator.kube.Conditions;
import dev.dht.pki.CertificateInfo;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a cluster's TLS came to in one reconciliation: status.tls, the {@value #CONDITION}
 * condition's facts, and when to look again (a rotation's next step or the next renewal; null when
 * nothing is due).
 */
public record TlsReport(TlsStatus status, Health health, Instant nextCheck) {
  public static final String CONDITION = "CertificatesReady";
  static final String ISSUED = "CertificatesIssued";
  static final String ROTATING = "RotatingCa";
  static final String NOT_OWNED = "SecretNotOwned";
  static final String PENDING = "CertificatePending";
  static final String NOT_READY = "CertificateNotReady";
  static final String NO_CA = "NoCaInSecret";
  static final String CERT_MANAGER_MISSING = "CertManagerMissing";

  /** How soon to look again while cert-manager has not issued the certificate. */
  static final Duration PENDING_POLL = Duration.ofSeconds(5);

  /** Reasons that stop the reconcile chain: no node may start with (or mount) these Secrets. */
  private static final Set<String> BLOCKING =
      Set.of(NOT_OWNED, PENDING, NO_CA, CERT_MANAGER_MISSING);

  /** TLS is off: no status, no condition. */
  public static final TlsReport OFF = new TlsReport(null, null, null);

  /**
   * Whether a Secret of the cluster's TLS is someone else's, or holds no certificate the nodes can
   * use yet: nothing may mount it.
   */
  public boolean blocked() {
    return health != null && BLOCKING.contains(health.reason());
  }

  /** The condition's status, reason and message. */
  public record Health(boolean ready, String reason, String message) {}

  /** The condition, carrying its transition time over from {@code before}; none when TLS is off. */
  public Optional<Condition> condition(List<Condition> before, long generation, Instant now) {
    return Optional.ofNullable(health)
        .map(h ->
            Conditions.next(
                before, CONDITION, h.ready(), h.reason(), h.message(), generation, now));
  }

  /** Where the Secrets stand after the plan's last step ({@code Wait} or {@code UpToDate}). */
  static TlsReport of(ClusterSecrets secrets, CertificatePlan.Step last) {
    var seen = secrets.observed();
    var phase = CertificatePlan.phase(seen);
    Instant nextStep = last instanceof CertificatePlan.Wait wait ? wait.until() : null;
    Instant nextCheck =
        last instanceof CertificatePlan.UpToDate upToDate ? upToDate.nextCheck() : nextStep;
    var status =
        TlsStatus.builder()
            .caFingerprint(seen.current().fingerprint())
            .caNotAfter(SecretData.format(seen.current().notAfter()))
            .trustedCaFingerprints(List.copyOf(CertificatePlan.trust(seen)))
            .certificateNotAfter(SecretData.format(seen.certificate().notAfter()))
            .rotationPhase(phase)
            .nextStepAt(nextStep == null ? null : SecretData.format(nextStep))
            .rotateCaHandled(seen.rotationHandled())
            .build();
    Health health;
    if (phase == null) {
      health =
          new Health(
              true,
              ISSUED,
              "the node certificate is valid until "
                  + status.getCertificateNotAfter()
                  + ", the CA until "
                  + status.getCaNotAfter());
    } else {
      String why = last instanceof CertificatePlan.Wait wait ? wait.why() : "under way";
      health =
          new Health(
              true,
              ROTATING,
              "rotating the CA, "
                  + phase
                  + ": "
                  + why
                  + (nextStep == null ? "" : "; next step at " + status.getNextStepAt()));
    }
    return new TlsReport(status, health, nextCheck);
  }

  /** Secrets of the wanted names that the operator did not make for this cluster. */
  static TlsReport notOwned(String namespace, List<String> names) {
    String which =
        names.size() == 1
            ? "Secret " + namespace + "/" + names.getFirst() + " exists and was"
            : "Secrets " + namespace + "/" + String.join(", ", names) + " exist and were";
    return new TlsReport(
        null,
        new Health(
            false,
            NOT_OWNED,
            which
                + " not made by the operator for this DhtCluster (no controller owner reference"
                + " with its UID): the operator neither adopts nor overwrites them, and issues no"
                + " certificates, nor applies the nodes that would mount them, while they are"
                + " there. Delete or rename them."),
        null);
  }

  /**
   * What cert-manager's work came to: the node certificate and bundle in {@code secret} (null: no
   * Secret yet), and the Certificate's Ready condition. A Secret without a usable certificate and
   * key, or without the CA bundle peers verify each other with, stops the cluster; a certificate
   * that works while cert-manager reports trouble (a renewal that fails) keeps it running, with the
   * condition False.
   */
  static TlsReport issuedBy(
      IssuerRef issuer,
      String secret,
      NodeTlsSecret content,
      CertManagerCertificate.Readiness readiness,
      Instant now) {
    String by = "cert-manager " + issuer.describe();
    if (content == null || content.certificate() == null) {
      return new TlsReport(
          TlsStatus.builder().issuer(issuer.describe()).build(),
          new Health(
              false,
              PENDING,
              "waiting for "
                  + by
                  + " to issue the node certificate into Secret "
                  + secret
                  + " (Certificate "
                  + secret
                  + ": "
                  + readiness.describe()
                  + "); the nodes start once it is there"),
          now.plus(PENDING_POLL));
    }
    if (content.trust().certificates().isEmpty()) {
      return new TlsReport(
          TlsStatus.builder().issuer(issuer.describe()).build(),
          new Health(
              false,
              NO_CA,
              "Secret "
                  + secret
                  + " from "
                  + by
                  + " has no ca.crt: peers could not verify each other's certificates. Use an"
                  + " issuer that writes it (CA, self-signed and Vault issuers do; ACME issuers do"
                  + " not)."),
          now.plus(PENDING_POLL));
    }
    var trusted = content.trust().certificates();
    var status =
        TlsStatus.builder()
            .issuer(issuer.describe())
            .caFingerprint(CertificateInfo.fingerprint(trusted.getFirst()))
            .caNotAfter(SecretData.format(trusted.getFirst().getNotAfter().toInstant()))
            .trustedCaFingerprints(List.copyOf(content.trust().fingerprints()))
            .certificateNotAfter(
                SecretData.format(content.certificate().certificate().getNotAfter().toInstant()))
            .build();
    String validity =
        "the node certificate from " + by + " is valid until " + status.getCertificateNotAfter();
    Health health =
        readiness.ready()
            ? new Health(true, ISSUED, validity)
            : new Health(
                false, NOT_READY, "cert-manager says " + readiness.describe() + "; " + validity);
    return new TlsReport(
        status, health, readiness.ready() ? null : now.plus(PENDING_POLL.multipliedBy(6)));
  }

  /** Objects of the wanted names (described: "Certificate x") not made for this cluster. */
  static TlsReport notMadeFor(String namespace, List<String> objects) {
    return new TlsReport(
        null,
        new Health(
            false,
            NOT_OWNED,
            String.join(", ", objects)
                + " in namespace "
                + namespace
                + (objects.size() == 1 ? " exists and was" : " exist and were")
                + " not made for this DhtCluster (a Certificate without its controller owner"
                + " reference, a Secret that was there before the cluster's Certificate): the"
                + " operator neither adopts nor overwrites them, nor applies the nodes that would"
                + " mount them, while they are there. Delete or rename them."),
        null);
  }

  /** spec.tls.issuerRef, and no cert-manager Certificate API in the cluster. */
  static TlsReport certManagerMissing(IssuerRef issuer) {
    return new TlsReport(
        TlsStatus.builder().issuer(issuer.describe()).build(),
        new Health(
            false,
            CERT_MANAGER_MISSING,
            "spec.tls.issuerRef names "
                + issuer.describe()
                + ", but the cluster has no cert-manager (the API "
                + CertManagerCertificate.API_VERSION
                + " "
                + CertManagerCertificate.KIND
                + " is not served): install cert-manager, or create the cluster without"
                + " issuerRef to use the operator's CA"),
        null);
  }
}
