package dev.dht.operator.tls;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The next thing to do about a cluster's CA, trust bundle and node certificate. Pure: from what the
 * Secrets hold and the time, one step; the caller applies it, observes again and asks again, until
 * the plan says to wait or that everything is up to date.
 *
 * <p>The trust bundle is the current CA and, during a rotation, the previous one. A rotation
 * replaces the CA without a moment where a node presents a certificate that another node does not
 * trust yet, given that the kubelet brings a change of a mounted Secret to every pod within the
 * propagation delay:
 *
 * <ol>
 *   <li>a new CA is made and trusted next to the old one; the node certificate stays the old CA's;
 *   <li>once the new bundle has reached every node, the node certificate is re-issued by the new
 *       CA;
 *   <li>once that certificate has reached every node, the old CA leaves the bundle.
 * </ol>
 *
 * A rotation starts 30 days before the CA expires, or when the annotation {@value
 * #ROTATE_ANNOTATION} on the cluster takes a value not handled yet. The node certificate is
 * re-issued when it is missing, not signed by the current CA, carries other names than the wanted
 * ones, or expires within its renewal window. An expired CA is replaced at once, without overlap:
 * nothing signed by it is trusted anymore anyway.
 */
public final class CertificatePlan {
  /** On the DhtCluster: a new value starts a rotation of the CA. */
  public static final String ROTATE_ANNOTATION = "dht.dev/rotate-ca";

  private CertificatePlan() {}

  /** A CA certificate: its SHA-256 fingerprint and end. */
  public record Ca(String fingerprint, Instant notAfter) {}

  /**
   * The node certificate; {@code issuer} is the fingerprint of the CA (current or previous) that
   * signed it, null when neither did.
   */
  public record NodeCertificate(String issuer, Instant notAfter, Set<String> dnsNames) {}

  /**
   * What the Secrets hold: the current CA (null when there is none that can sign), the previous one
   * (null unless a rotation runs), the node certificate (null when there is none), the fingerprints
   * of the bundles the nodes and the clients get, when the nodes' bundle and certificate last
   * changed, and the last rotation request handled.
   */
  public record Observed(
      Ca current,
      Ca previous,
      NodeCertificate certificate,
      Set<String> nodeTrust,
      Set<String> publicTrust,
      Instant trustChangedAt,
      Instant certificateIssuedAt,
      String rotationHandled) {}

  /** The names the node certificate must carry, and the value of the rotation annotation. */
  public record Wanted(Set<String> dnsNames, String rotationRequested) {}

  /** One step. */
  public sealed interface Step {}

  /**
   * Make a new CA, recording the rotation request as handled. {@code keepPrevious}: the current CA
   * stays trusted (a rotation); else it is dropped with any previous one.
   */
  public record NewCa(String why, boolean keepPrevious) implements Step {}

  /** Write the wanted trust bundle where it differs (clients' Secret, nodes' Secret). */
  public record PublishTrust() implements Step {}

  /** Issue a new node certificate with the current CA. */
  public record IssueCertificate(String why) implements Step {}

  /** Drop the previous CA (the bundle follows with {@link PublishTrust}). */
  public record RetirePreviousCa(String why) implements Step {}

  /** Nothing to do before {@code until}. */
  public record Wait(Instant until, String why) implements Step {}

  /** Everything is current; the next renewal is due at {@code nextCheck}. */
  public record UpToDate(Instant nextCheck) implements Step {}

  public static Step next(Observed seen, Wanted wanted, Instant now, CertificatePolicy policy) {
    var ca = seen.current();
    if (ca == null) {
      return new NewCa("there is no CA", false);
    }
    if (!now.isBefore(ca.notAfter())) {
      return new NewCa("the CA expired at " + ca.notAfter(), false);
    }
    var previous = seen.previous();
    if (previous != null && !now.isBefore(previous.notAfter())) {
      return new RetirePreviousCa("the previous CA expired at " + previous.notAfter());
    }
    var trust = trust(seen);
    boolean nodesHaveTheirSecret = seen.certificate() != null;
    if (!seen.publicTrust().equals(trust)
        || nodesHaveTheirSecret && !seen.nodeTrust().equals(trust)) {
      return new PublishTrust();
    }
    return previous != null
        ? rotating(seen, wanted, now, policy)
        : steady(seen, wanted, now, policy);
  }

  /** The steps of a rotation under way: re-issue, then retire the old CA, each after the delay. */
  private static Step rotating(
      Observed seen, Wanted wanted, Instant now, CertificatePolicy policy) {
    var certificate = seen.certificate();
    if (!signedByCurrent(seen)) {
      boolean oldCasAndValid =
          certificate != null
              && seen.previous().fingerprint().equals(certificate.issuer())
              && now.isBefore(certificate.notAfter());
      Instant due = seen.trustChangedAt().plus(policy.propagationDelay());
      if (oldCasAndValid && now.isBefore(due)) {
        return new Wait(due, "the new CA is reaching the nodes' trust bundles");
      }
      return new IssueCertificate("the new CA signs it");
    }
    // both CAs are trusted here, so a certificate due anyway is re-issued at once
    String renewal = renewal(certificate, wanted, now, policy);
    if (renewal != null) {
      return new IssueCertificate(renewal);
    }
    Instant due = seen.certificateIssuedAt().plus(policy.propagationDelay());
    if (now.isBefore(due)) {
      return new Wait(due, "the new CA's certificate is reaching the nodes");
    }
    return new RetirePreviousCa("every node presents the new CA's certificate");
  }

  private static Step steady(Observed seen, Wanted wanted, Instant now, CertificatePolicy policy) {
    var ca = seen.current();
    if (rotationRequested(seen, wanted)) {
      return new NewCa(ROTATE_ANNOTATION + "=" + wanted.rotationRequested() + " asks for it", true);
    }
    Instant caRenewal = ca.notAfter().minus(policy.caRenewBefore());
    if (!now.isBefore(caRenewal)) {
      return new NewCa("the CA expires at " + ca.notAfter(), true);
    }
    var certificate = seen.certificate();
    if (certificate == null) {
      return new IssueCertificate("there is none");
    }
    if (!signedByCurrent(seen)) {
      return new IssueCertificate("it is not signed by the current CA");
    }
    String renewal = renewal(certificate, wanted, now, policy);
    if (renewal != null) {
      return new IssueCertificate(renewal);
    }
    Instant certificateRenewal = certificate.notAfter().minus(policy.certificateRenewBefore());
    return new UpToDate(certificateRenewal.isBefore(caRenewal) ? certificateRenewal : caRenewal);
  }

  /** Why a certificate of the current CA is re-issued, or null. */
  private static String renewal(
      NodeCertificate certificate, Wanted wanted, Instant now, CertificatePolicy policy) {
    if (!certificate.dnsNames().equals(wanted.dnsNames())) {
      return "its names differ from the wanted ones";
    }
    if (!now.isBefore(certificate.notAfter().minus(policy.certificateRenewBefore()))) {
      return "it expires at " + certificate.notAfter();
    }
    return null;
  }

  /** Where a rotation stands, or null when none runs. */
  public static RotationPhase phase(Observed seen) {
    if (seen.current() == null || seen.previous() == null) {
      return null;
    }
    return signedByCurrent(seen) ? RotationPhase.CertificateReissued : RotationPhase.NewCaTrusted;
  }

  /** The fingerprints of the wanted trust bundle: the current CA, then the previous one. */
  public static Set<String> trust(Observed seen) {
    var trust = new LinkedHashSet<String>();
    if (seen.current() != null) {
      trust.add(seen.current().fingerprint());
    }
    if (seen.previous() != null) {
      trust.add(seen.previous().fingerprint());
    }
    return trust;
  }

  /** The annotation has a value that no CA was made for yet. */
  static boolean rotationRequested(Observed seen, Wanted wanted) {
    String value = wanted.rotationRequested();
    return value != null && !value.isBlank() && !value.equals(seen.rotationHandled());
  }

  private static boolean signedByCurrent(Observed seen) {
    return seen.certificate() != null
        && seen.current().fingerprint().equals(seen.certificate().issuer());
  }
}
