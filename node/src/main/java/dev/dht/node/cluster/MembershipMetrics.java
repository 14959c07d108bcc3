package dev.dht.node.cluster;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * The membership epoch the node is at, its members, and whether it is in a transition (a change
 * underway).
 */
public record MembershipMetrics(ClusterState cluster) implements MeterBinder {
  @Override
  public void bindTo(MeterRegistry registry) {
    Gauge.builder("dht_membership_epoch", cluster, c -> c.topology().epoch())
        .description("the epoch of the membership the node is at")
        .register(registry);
    Gauge.builder("dht_membership_members", cluster, c -> c.topology().members().size())
        .description("the members of the node's membership, all states")
        .register(registry);
    Gauge.builder("dht_membership_in_transition", cluster, c -> c.topology().inTransition() ? 1 : 0)
        .description(
            "1 while the node's membership is in a transition: members joining or leaving, or a"
                + " change of the default ack/from, not yet final")
        .register(registry);
  }
}
