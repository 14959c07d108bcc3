package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.contract.MembersFile.Replication;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.scaling.Membership;
import org.junit.jupiter.api.Test;

/**
 * The model's field defaults hold for Jackson's no-args construction and for the generated builders
 * alike (Lombok's {@code @Builder.Default}); each instance gets lists of its own.
 */
class ModelDefaultsTest {
  @Test
  void theClusterSpecsDefaults() {
    for (var spec : new DhtClusterSpec[] {new DhtClusterSpec(), DhtClusterSpec.builder().build()}) {
      assertThat(spec.getReplicas()).isEqualTo(3);
      assertThat(spec.getReplication()).isEqualTo(new DhtClusterSpec.Replication());
      assertThat(spec.getThreads()).isEqualTo(new DhtClusterSpec.Threads());
      assertThat(spec.getLimits().getMaxInflight()).isEqualTo(4096);
      assertThat(spec.getLimits().getRequestTimeoutMs()).isEqualTo(1000);
      assertThat(spec.getLimits().getMaxValueBytes()).isEqualTo(1048576);
      assertThat(spec.getStorage().getSize()).isEqualTo("1Gi");
      assertThat(spec.getJvmOptions()).isEmpty();
      assertThat(spec.getImagePullSecrets()).isEmpty();
      assertThat(spec.getDetachedClaims()).isEqualTo(DhtClusterSpec.DetachedClaims.Keep);
      assertThat(spec.getOperatorUpgrades()).isEqualTo(DhtClusterSpec.OperatorUpgrades.Manual);
      assertThat(spec.getTls().getEnabled()).isTrue();
    }
    assertThat(DhtClusterSpec.builder().build()).isEqualTo(new DhtClusterSpec());
    assertThat(new DhtClusterSpec().getJvmOptions())
        .isNotSameAs(new DhtClusterSpec().getJvmOptions());
    assertThat(DhtClusterSpec.builder().build().getLimits())
        .isNotSameAs(DhtClusterSpec.builder().build().getLimits());
  }

  @Test
  void theLoadTestSpecsDefaults() {
    for (var spec :
        new DhtLoadTestSpec[] {new DhtLoadTestSpec(), DhtLoadTestSpec.builder().build()}) {
      assertThat(spec.getDuration()).isEqualTo("60s");
      assertThat(spec.getWarmup()).isEqualTo("10s");
      assertThat(spec.getPendingTimeout()).isEqualTo("10m");
      assertThat(spec.getConnections()).isEqualTo(64);
      assertThat(spec.getParallelism()).isEqualTo(1);
      assertThat(spec.getWorkload().getOperation()).isEqualTo(DhtLoadTestSpec.Operation.PUT);
      assertThat(spec.getWorkload().getKeyspace()).isEqualTo(100_000L);
      assertThat(spec.getWorkload().getValueSize()).isEqualTo(100);
      assertThat(spec.getWorkload().getKeyDistribution())
          .isEqualTo(DhtLoadTestSpec.KeyDistribution.UNIFORM);
    }
    assertThat(DhtLoadTestSpec.builder().build()).isEqualTo(new DhtLoadTestSpec());
  }

  @Test
  void theStatusesStartWithEmptyLists() {
    for (var status :
        new DhtClusterStatus[] {new DhtClusterStatus(), DhtClusterStatus.builder().build()}) {
      assertThat(status.getMembers()).isEmpty();
      assertThat(status.getNodes()).isEmpty();
      assertThat(status.getConditions()).isEmpty();
    }
    for (var status :
        new DhtLoadTestStatus[] {new DhtLoadTestStatus(), DhtLoadTestStatus.builder().build()}) {
      assertThat(status.getConditions()).isEmpty();
      assertThat(status.getArtifacts()).isEmpty();
    }
    assertThat(new RollStatus().getOutdated()).isEmpty();
    assertThat(new ObservedNode().getSecretFingerprints()).isEmpty();
  }

  @Test
  void aMembershipIsStableUnlessToldOtherwise() {
    assertThat(new Membership().getStep()).isEqualTo(Membership.Step.STABLE);
    var built =
        Membership.builder()
            .epoch(2)
            .members(3)
            .target(3)
            .ack(2)
            .from(3)
            .targetAck(2)
            .targetFrom(3);
    assertThat(built.build())
        .isEqualTo(Membership.stable(2, 3, new Replication(2, 3)))
        .hasToString("STABLE epoch 2 3 ack/from 2/3");
    assertThat(built.step(Membership.Step.JOINING).targetAck(3).targetFrom(5).build())
        .hasToString("JOINING epoch 2 3 ack/from 2/3 -> 3/5");
  }
}
