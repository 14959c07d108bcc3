package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.settings.ClockSpec;
import dev.dht.operator.settings.CompatibilitySpec;
import dev.dht.operator.settings.MaintenanceSpec;
import dev.dht.operator.settings.RocksDbSpec;
import org.junit.jupiter.api.Test;

class NodeSettingFlagsTest {
  @Test
  void everySettingSetBecomesItsNodeFlag() {
    var spec = new DhtClusterSpec();
    var limits = spec.getLimits();
    limits.setMaxKeyBytes(100);
    limits.setBodyTimeoutMs(2000);
    limits.setIdleTimeoutSeconds(30);
    limits.setMaxBodyBytesInflight(1_000_000L);
    limits.setMaxInternalInflight(64);
    limits.setMaxInternalBodyBytesInflight(2_000_000L);
    limits.setPeerMaxPendingOps(128);
    limits.setPeerMaxPendingBytes(3_000_000L);
    spec.setMaintenance(
        MaintenanceSpec.builder()
            .repairIntervalSeconds(600L)
            .repairBytesPerSecond(1_048_576L)
            .tombstoneGraceSeconds(7200L)
            .hintWindowSeconds(1800L)
            .maxHintBytes(4_194_304L)
            .hintReplayBytesPerSecond(65_536L)
            .build());
    spec.setClock(ClockSpec.builder().maxOffsetMs(250L).build());
    spec.setRocksdb(RocksDbSpec.builder().blockCacheMb(128L).build());
    spec.setCompatibility(CompatibilitySpec.builder().peerFrames(false).streamFiles(false).build());

    assertThat(NodeSettingFlags.of(spec))
        .containsExactly(
            "--max-key-bytes=100",
            "--body-timeout-ms=2000",
            "--idle-timeout-s=30",
            "--max-body-bytes-inflight=1000000",
            "--max-internal-inflight=64",
            "--max-internal-body-bytes-inflight=2000000",
            "--peer-max-pending-ops=128",
            "--peer-max-pending-bytes=3000000",
            "--repair-interval-s=600",
            "--repair-bytes-per-s=1048576",
            "--tombstone-grace-s=7200",
            "--hint-window-s=1800",
            "--max-hint-bytes=4194304",
            "--hint-replay-bytes-per-s=65536",
            "--max-clock-offset-ms=250",
            "--block-cache-mb=128",
            "--peer-frames=false",
            "--stream-files=false");
  }

  @Test
  void anUnsetSettingAddsNoFlagSoTheNodesDefaultApplies() {
    assertThat(NodeSettingFlags.of(new DhtClusterSpec())).isEmpty();
    var spec = new DhtClusterSpec();
    spec.setMaintenance(MaintenanceSpec.builder().repairIntervalSeconds(120L).build());
    spec.setLimits(null);
    assertThat(NodeSettingFlags.of(spec)).containsExactly("--repair-interval-s=120");
  }

  @Test
  void theSettingsComeAfterTheOperatorsOwnFlags() {
    var cluster = Clusters.cluster(3);
    cluster.getSpec().setClock(ClockSpec.builder().maxOffsetMs(250L).build());
    assertThat(NodePodTemplate.args(Clusters.model(cluster))).endsWith("--max-clock-offset-ms=250");
  }
}
