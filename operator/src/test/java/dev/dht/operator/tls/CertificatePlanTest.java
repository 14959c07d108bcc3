package dev.dht.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.tls.CertificatePlan.Ca;
import dev.dht.operator.tls.CertificatePlan.IssueCertificate;
import dev.dht.operator.tls.CertificatePlan.NewCa;
import dev.dht.operator.tls.CertificatePlan.NodeCertificate;
import dev.dht.operator.tls.CertificatePlan.Observed;
import dev.dht.operator.tls.CertificatePlan.PublishTrust;
import dev.dht.operator.tls.CertificatePlan.RetirePreviousCa;
import dev.dht.operator.tls.CertificatePlan.UpToDate;
import dev.dht.operator.tls.CertificatePlan.Wait;
import dev.dht.operator.tls.CertificatePlan.Wanted;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each rule of the plan, on hand-made observations. */
class CertificatePlanTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final CertificatePolicy POLICY = CertificatePolicy.DEFAULT;
  private static final Duration DELAY = CertificatePolicy.PROPAGATION_DELAY;
  private static final Set<String> NAMES = Set.of("*.demo-peers.ns.svc", "demo", "localhost");
  private static final Wanted WANTED = new Wanted(NAMES, null);

  private static final Ca OLD = new Ca("OLD", NOW.plus(Duration.ofDays(200)));
  private static final Ca NEW = new Ca("NEW", NOW.plus(Duration.ofDays(365)));
  private static final NodeCertificate BY_OLD = certificate("OLD", 60);
  private static final NodeCertificate BY_NEW = certificate("NEW", 90);
  private static final Instant LONG_AGO = NOW.minus(Duration.ofDays(10));

  private static NodeCertificate certificate(String issuer, int daysLeft) {
    return new NodeCertificate(issuer, NOW.plus(Duration.ofDays(daysLeft)), NAMES);
  }

  /** One CA, its certificate and bundles in place, nothing changed lately. */
  private static Observed steady(Ca ca, NodeCertificate certificate) {
    var trust = Set.of(ca.fingerprint());
    return new Observed(ca, null, certificate, trust, trust, LONG_AGO, LONG_AGO, null);
  }

  private static CertificatePlan.Step next(Observed seen) {
    return CertificatePlan.next(seen, WANTED, NOW, POLICY);
  }

  @Test
  void aNewClusterGetsACaThenItsBundleThenItsCertificate() {
    var empty =
        new Observed(null, null, null, Set.of(), Set.of(), Instant.EPOCH, Instant.EPOCH, null);
    assertThat(next(empty)).isEqualTo(new NewCa("there is no CA", false));
    var withCa =
        new Observed(OLD, null, null, Set.of(), Set.of(), Instant.EPOCH, Instant.EPOCH, null);
    assertThat(next(withCa)).isInstanceOf(PublishTrust.class);
    var published =
        new Observed(OLD, null, null, Set.of(), Set.of("OLD"), Instant.EPOCH, Instant.EPOCH, null);
    assertThat(next(published)).isEqualTo(new IssueCertificate("there is none"));
  }

  @Test
  void everythingCurrentIsUpToDateUntilTheFirstRenewal() {
    assertThat(next(steady(OLD, BY_OLD)))
        .isEqualTo(new UpToDate(BY_OLD.notAfter().minus(Duration.ofDays(30))));
    var younger = certificate("OLD", 89);
    var caFirst = new Ca("OLD", NOW.plus(Duration.ofDays(40)));
    assertThat(next(steady(caFirst, younger)))
        .isEqualTo(new UpToDate(caFirst.notAfter().minus(Duration.ofDays(30))));
  }

  @Test
  void theCertificateIsRenewedThirtyDaysBeforeItsEnd() {
    assertThat(next(steady(OLD, certificate("OLD", 31)))).isInstanceOf(UpToDate.class);
    assertThat(next(steady(OLD, certificate("OLD", 30))))
        .isInstanceOf(IssueCertificate.class)
        .extracting(s -> ((IssueCertificate) s).why())
        .asString()
        .startsWith("it expires at");
  }

  @Test
  void otherNamesReissueTheCertificate() {
    var fewer = new NodeCertificate("OLD", BY_OLD.notAfter(), Set.of("localhost"));
    assertThat(next(steady(OLD, fewer)))
        .isEqualTo(new IssueCertificate("its names differ from the wanted ones"));
  }

  @Test
  void aCertificateOfAnotherCaIsReissued() {
    var stranger = new NodeCertificate(null, BY_OLD.notAfter(), NAMES);
    assertThat(next(steady(OLD, stranger)))
        .isEqualTo(new IssueCertificate("it is not signed by the current CA"));
  }

  @Test
  void theCaRotatesThirtyDaysBeforeItsEnd() {
    var ending = new Ca("OLD", NOW.plus(Duration.ofDays(30)));
    assertThat(next(steady(ending, BY_OLD)))
        .isEqualTo(new NewCa("the CA expires at " + ending.notAfter(), true));
    var notYet = new Ca("OLD", NOW.plus(Duration.ofDays(30)).plusSeconds(1));
    assertThat(next(steady(notYet, BY_OLD))).isInstanceOf(UpToDate.class);
  }

  @Test
  void anExpiredCaIsReplacedAtOnceWithoutOverlap() {
    var expired = new Ca("OLD", NOW);
    assertThat(next(steady(expired, BY_OLD)))
        .isEqualTo(new NewCa("the CA expired at " + NOW, false));
    // during a rotation too: the previous one is dropped with it
    var rotating =
        new Observed(expired, OLD, BY_OLD, Set.of("OLD"), Set.of("OLD"), LONG_AGO, LONG_AGO, null);
    assertThat(next(rotating)).isEqualTo(new NewCa("the CA expired at " + NOW, false));
  }

  @Test
  void aRequestedRotationStartsOnceForEachNewValue() {
    var asked = new Wanted(NAMES, "2026-06-01");
    assertThat(CertificatePlan.next(steady(OLD, BY_OLD), asked, NOW, POLICY))
        .isEqualTo(new NewCa("dht.dev/rotate-ca=2026-06-01 asks for it", true));
    var handled =
        new Observed(
            OLD, null, BY_OLD, Set.of("OLD"), Set.of("OLD"), LONG_AGO, LONG_AGO, "2026-06-01");
    assertThat(CertificatePlan.next(handled, asked, NOW, POLICY)).isInstanceOf(UpToDate.class);
    assertThat(CertificatePlan.next(steady(OLD, BY_OLD), new Wanted(NAMES, " "), NOW, POLICY))
        .as("a blank value asks nothing")
        .isInstanceOf(UpToDate.class);
  }

  @Test
  void step1TheNewCaIsPublishedNextToTheOldOne() {
    var madeNew =
        new Observed(NEW, OLD, BY_OLD, Set.of("OLD"), Set.of("OLD"), LONG_AGO, LONG_AGO, null);
    assertThat(next(madeNew)).isInstanceOf(PublishTrust.class);
    assertThat(CertificatePlan.trust(madeNew)).containsExactly("NEW", "OLD");
    assertThat(CertificatePlan.phase(madeNew)).isEqualTo(RotationPhase.NewCaTrusted);
    var clientsOnly =
        new Observed(
            NEW, OLD, BY_OLD, Set.of("OLD"), Set.of("NEW", "OLD"), LONG_AGO, LONG_AGO, null);
    assertThat(next(clientsOnly)).as("the nodes' bundle too").isInstanceOf(PublishTrust.class);
  }

  @Test
  void step2TheCertificateIsReissuedByTheNewCaOnceTheBundleReachedTheNodes() {
    var both = Set.of("NEW", "OLD");
    var justPublished = new Observed(NEW, OLD, BY_OLD, both, both, NOW, LONG_AGO, null);
    assertThat(next(justPublished))
        .isEqualTo(new Wait(NOW.plus(DELAY), "the new CA is reaching the nodes' trust bundles"));
    var almost =
        new Observed(NEW, OLD, BY_OLD, both, both, NOW.minus(DELAY).plusSeconds(1), LONG_AGO, null);
    assertThat(next(almost)).isInstanceOf(Wait.class);
    var propagated = new Observed(NEW, OLD, BY_OLD, both, both, NOW.minus(DELAY), LONG_AGO, null);
    assertThat(next(propagated)).isEqualTo(new IssueCertificate("the new CA signs it"));
  }

  @Test
  void step3TheOldCaLeavesOnceTheNewCertificateReachedTheNodes() {
    var both = Set.of("NEW", "OLD");
    var justIssued = new Observed(NEW, OLD, BY_NEW, both, both, NOW.minus(DELAY), NOW, null);
    assertThat(CertificatePlan.phase(justIssued)).isEqualTo(RotationPhase.CertificateReissued);
    assertThat(next(justIssued))
        .isEqualTo(new Wait(NOW.plus(DELAY), "the new CA's certificate is reaching the nodes"));
    var propagated = new Observed(NEW, OLD, BY_NEW, both, both, LONG_AGO, NOW.minus(DELAY), null);
    assertThat(next(propagated))
        .isEqualTo(new RetirePreviousCa("every node presents the new CA's certificate"));
    var retired = new Observed(NEW, null, BY_NEW, both, both, LONG_AGO, NOW.minus(DELAY), null);
    assertThat(next(retired)).as("then the bundle without it").isInstanceOf(PublishTrust.class);
    assertThat(CertificatePlan.phase(retired)).isNull();
    var done =
        new Observed(NEW, null, BY_NEW, Set.of("NEW"), Set.of("NEW"), NOW, NOW.minus(DELAY), null);
    assertThat(next(done)).isInstanceOf(UpToDate.class);
  }

  @Test
  void duringARotationAMissingOrForeignCertificateIsIssuedAtOnce() {
    var both = Set.of("NEW", "OLD");
    var missing = new Observed(NEW, OLD, null, Set.of(), both, Instant.EPOCH, Instant.EPOCH, null);
    assertThat(next(missing)).isEqualTo(new IssueCertificate("the new CA signs it"));
    var foreign = new NodeCertificate(null, BY_OLD.notAfter(), NAMES);
    var stranger = new Observed(NEW, OLD, foreign, both, both, NOW, LONG_AGO, null);
    assertThat(next(stranger)).isEqualTo(new IssueCertificate("the new CA signs it"));
  }

  @Test
  void duringStep3ACertificateDueAnywayIsReissuedAtOnce() {
    var both = Set.of("NEW", "OLD");
    var renamed = new NodeCertificate("NEW", BY_NEW.notAfter(), Set.of("localhost"));
    var seen = new Observed(NEW, OLD, renamed, both, both, LONG_AGO, NOW, null);
    assertThat(next(seen)).isEqualTo(new IssueCertificate("its names differ from the wanted ones"));
  }

  @Test
  void aSecondRequestWaitsForTheRotationUnderWay() {
    var both = Set.of("NEW", "OLD");
    var asked = new Wanted(NAMES, "second");
    var rotating = new Observed(NEW, OLD, BY_OLD, both, both, NOW, LONG_AGO, "first");
    assertThat(CertificatePlan.next(rotating, asked, NOW, POLICY)).isInstanceOf(Wait.class);
    var finished =
        new Observed(NEW, null, BY_NEW, Set.of("NEW"), Set.of("NEW"), LONG_AGO, LONG_AGO, "first");
    assertThat(CertificatePlan.next(finished, asked, NOW, POLICY))
        .isEqualTo(new NewCa("dht.dev/rotate-ca=second asks for it", true));
  }

  @Test
  void anExpiredPreviousCaIsRetiredAtOnce() {
    var both = Set.of("NEW", "OLD");
    var expiredOld = new Ca("OLD", NOW);
    var seen = new Observed(NEW, expiredOld, BY_OLD, both, both, NOW, LONG_AGO, null);
    assertThat(next(seen)).isEqualTo(new RetirePreviousCa("the previous CA expired at " + NOW));
  }

  @Test
  void policiesThatWouldRenewForeverAreRefused() {
    var day = Duration.ofDays(1);
    assertThatThrownBy(
            () -> new CertificatePolicy(day, day, day.dividedBy(2), day.dividedBy(4), DELAY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() ->
            new CertificatePolicy(
                day.multipliedBy(10), day, day.multipliedBy(5), day.multipliedBy(2), DELAY))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
