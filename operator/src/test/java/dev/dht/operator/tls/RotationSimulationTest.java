package dev.dht.operator.tls;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.tls.CertificatePlan.Ca;
import dev.dht.operator.tls.CertificatePlan.NodeCertificate;
import dev.dht.operator.tls.CertificatePlan.Observed;
import dev.dht.operator.tls.CertificatePlan.Wanted;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * The plan over years of a cluster's life, in a model of the Secrets and of the kubelet: the plan's
 * steps are applied as the operator applies them (reconciliations at random moments, rotation
 * requests and changes of names in between), and every node pod may hold any version of the nodes'
 * Secret written within the propagation delay, or the last one before. Whatever happens:
 *
 * <ul>
 *   <li>no two versions a pod may hold at once disagree: each one's certificate is signed by a CA
 *       the other trusts (so no node ever refuses a peer);
 *   <li>with a reconciliation at least every ten days, neither the CA nor the certificate expires;
 *   <li>once asked, a rotation ends (one CA, the certificate its) and each request is handled once.
 * </ul>
 */
class RotationSimulationTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private static final CertificatePolicy POLICY = CertificatePolicy.DEFAULT;
  private static final Duration DELAY = POLICY.propagationDelay();
  private static final Set<String> NAMES = Set.of("*.demo-peers.ns.svc", "demo", "localhost");
  private static final Set<String> MORE_NAMES =
      Set.of("*.demo-peers.ns.svc", "demo", "demo.ns", "localhost");

  /** Between two reconciliations: a pause, maybe a rotation request, maybe other names. */
  record Moment(Duration gap, boolean requestRotation, boolean changeNames) {}

  @Property(tries = 300)
  void nodesAlwaysTrustEachOtherAndNothingExpires(
      @ForAll @Size(min = 1, max = 80) List<@From("moments") Moment> moments) {
    live(moments);
  }

  /** Years without a request: the CA rotates by itself, with the same guarantees. */
  @Property(tries = 30)
  void theCaRotatesByItselfOverTheYears(
      @ForAll @Size(min = 250, max = 400) List<@From("days") Moment> moments) {
    var world = live(moments);
    assertThat(world.cas).as("CAs made over %s moments", moments.size()).isGreaterThan(1);
  }

  private static World live(List<Moment> moments) {
    var world = new World();
    Instant now = START;
    int requests = 0;
    Set<String> names = NAMES;
    world.reconcile(now, new Wanted(names, null));
    for (var moment : moments) {
      now = now.plus(moment.gap());
      if (moment.requestRotation()) {
        requests++;
      }
      if (moment.changeNames()) {
        names = names == NAMES ? MORE_NAMES : NAMES;
      }
      world.reconcile(now, new Wanted(names, requests == 0 ? null : "request-" + requests));
      assertThat(world.current.notAfter()).as("the CA at %s", now).isAfter(now);
      assertThat(world.node.certificate().notAfter()).as("the certificate at %s", now).isAfter(now);
    }
    // left alone, reconciled every minute: any rotation ends
    String last = requests == 0 ? null : "request-" + requests;
    for (int i = 0; i < 30; i++) {
      now = now.plus(Duration.ofMinutes(1));
      world.reconcile(now, new Wanted(names, last));
    }
    assertThat(world.previous).as("no rotation left under way").isNull();
    assertThat(world.node.certificate().issuer()).isEqualTo(world.current.fingerprint());
    assertThat(world.node.certificate().dnsNames()).isEqualTo(names);
    assertThat(world.node.trust()).containsExactly(world.current.fingerprint());
    assertThat(world.handled).isEqualTo(last);
    assertThat(world.rotationsAsked)
        .as("rotations started on request")
        .isLessThanOrEqualTo(requests);
    return world;
  }

  /** Seconds to days apart; now and then a request or other names. */
  @Provide
  Arbitrary<Moment> moments() {
    Arbitrary<Duration> gap =
        Arbitraries.oneOf(
            Arbitraries.longs().between(1, 400).map(Duration::ofSeconds),
            Arbitraries.longs().between(1, 10 * 24 * 60).map(Duration::ofMinutes));
    return Combinators.combine(gap, rarely(5), rarely(8)).as(Moment::new);
  }

  /**
   * Two to ten days apart (at least 500 days in all, less than the renewal windows); no requests.
   */
  @Provide
  Arbitrary<Moment> days() {
    Arbitrary<Duration> gap =
        Arbitraries.longs().between(2 * 24 * 60, 10 * 24 * 60).map(Duration::ofMinutes);
    return Combinators.combine(gap, Arbitraries.just(false), rarely(20)).as(Moment::new);
  }

  /** True once in {@code n}. */
  private static Arbitrary<Boolean> rarely(int n) {
    return Arbitraries.integers().between(1, n).map(i -> i == 1);
  }

  /** A version of the nodes' Secret: its certificate and bundle, and when it was written. */
  record NodeVersion(Instant written, NodeCertificate certificate, Set<String> trust) {}

  /** The Secrets, changed as the operator changes them, and every version the nodes' one had. */
  static final class World {
    Ca current;
    Ca previous;
    String handled;
    Set<String> publicTrust = Set.of();
    NodeVersion node;
    Instant trustChangedAt = Instant.EPOCH;
    Instant issuedAt = Instant.EPOCH;
    final List<NodeVersion> versions = new ArrayList<>();
    int cas;
    int rotationsAsked;

    void reconcile(Instant now, Wanted wanted) {
      for (int i = 0; i < 8; i++) {
        var step = CertificatePlan.next(observed(), wanted, now, POLICY);
        switch (step) {
          case CertificatePlan.NewCa newCa -> {
            if (CertificatePlan.rotationRequested(observed(), wanted)) {
              rotationsAsked++;
            }
            previous = newCa.keepPrevious() ? current : null;
            current = new Ca("CA-" + ++cas, now.plus(POLICY.caLifetime()));
            handled = wanted.rotationRequested() != null ? wanted.rotationRequested() : handled;
          }
          case CertificatePlan.PublishTrust publish -> {
            publicTrust = trust();
            if (node != null && !node.trust().equals(trust())) {
              trustChangedAt = now;
              write(now, node.certificate());
            }
          }
          case CertificatePlan.IssueCertificate issue -> {
            var end = now.plus(POLICY.certificateLifetime());
            var certificate =
                new NodeCertificate(
                    current.fingerprint(),
                    end.isAfter(current.notAfter()) ? current.notAfter() : end,
                    wanted.dnsNames());
            if (node == null || !node.trust().equals(trust())) {
              trustChangedAt = now;
            }
            issuedAt = now;
            write(now, certificate);
          }
          case CertificatePlan.RetirePreviousCa retire -> previous = null;
          case CertificatePlan.Wait wait -> {
            return;
          }
          case CertificatePlan.UpToDate done -> {
            return;
          }
        }
      }
      throw new AssertionError("the plan did not settle at " + now);
    }

    private void write(Instant now, NodeCertificate certificate) {
      node = new NodeVersion(now, certificate, trust());
      versions.add(node);
      var held = heldAt(now);
      for (var a : held) {
        for (var b : held) {
          assertThat(b.trust())
              .as("at %s a node with %s meets one with %s", now, b, a)
              .contains(a.certificate().issuer());
        }
      }
    }

    /**
     * The versions some pod may hold at {@code now}: those the kubelet may not have replaced yet.
     */
    private List<NodeVersion> heldAt(Instant now) {
      var held = new ArrayList<NodeVersion>();
      for (int i = versions.size() - 1; i >= 0; i--) {
        var version = versions.get(i);
        held.add(version);
        if (!version.written().isAfter(now.minus(DELAY))) {
          break; // every pod has this one or a later one
        }
      }
      return held;
    }

    private Set<String> trust() {
      var trust = new LinkedHashSet<String>();
      trust.add(current.fingerprint());
      if (previous != null) {
        trust.add(previous.fingerprint());
      }
      return trust;
    }

    private Observed observed() {
      return new Observed(
          current,
          previous,
          node == null ? null : node.certificate(),
          node == null ? Set.of() : node.trust(),
          publicTrust,
          trustChangedAt,
          issuedAt,
          handled);
    }
  }
}
