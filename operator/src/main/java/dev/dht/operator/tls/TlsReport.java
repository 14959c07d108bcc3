package dev.dht.operator.tls;

import dev.dht.operator.kube.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

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

  /** TLS is off: no status, no condition. */
  public static final TlsReport OFF = new TlsReport(null, null, null);

  /** Whether a Secret of the cluster's TLS is someone else's: nothing may mount it. */
  public boolean blocked() {
    return health != null && NOT_OWNED.equals(health.reason());
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
}
