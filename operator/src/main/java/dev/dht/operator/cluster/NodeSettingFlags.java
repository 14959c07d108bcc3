package dev.dht.operator.cluster;

import static java.util.Objects.requireNonNullElse;

import dev.dht.contract.NodeFlags;
import dev.dht.operator.settings.ClockSpec;
import dev.dht.operator.settings.CompatibilitySpec;
import dev.dht.operator.settings.MaintenanceSpec;
import dev.dht.operator.settings.RocksDbSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The node flags of the settings a {@link DhtClusterSpec} sets beyond threads and the first limits:
 * one {@code --flag=value} per field set, none for a field unset (the node's default applies), so a
 * cluster stored before a field existed keeps the pods it had. Pure.
 */
final class NodeSettingFlags {
  private final List<String> flags = new ArrayList<>();

  private NodeSettingFlags() {}

  static List<String> of(DhtClusterSpec spec) {
    var limits = requireNonNullElse(spec.getLimits(), new DhtClusterSpec.Limits());
    var maintenance = requireNonNullElse(spec.getMaintenance(), new MaintenanceSpec());
    var clock = requireNonNullElse(spec.getClock(), new ClockSpec());
    var rocksdb = requireNonNullElse(spec.getRocksdb(), new RocksDbSpec());
    var compatibility = requireNonNullElse(spec.getCompatibility(), new CompatibilitySpec());
    return new NodeSettingFlags()
        .add(NodeFlags.MAX_KEY_BYTES, limits.getMaxKeyBytes())
        .add(NodeFlags.BODY_TIMEOUT_MS, limits.getBodyTimeoutMs())
        .add(NodeFlags.IDLE_TIMEOUT_S, limits.getIdleTimeoutSeconds())
        .add(NodeFlags.MAX_BODY_BYTES_INFLIGHT, limits.getMaxBodyBytesInflight())
        .add(NodeFlags.MAX_INTERNAL_INFLIGHT, limits.getMaxInternalInflight())
        .add(NodeFlags.MAX_INTERNAL_BODY_BYTES_INFLIGHT, limits.getMaxInternalBodyBytesInflight())
        .add(NodeFlags.PEER_MAX_PENDING_OPS, limits.getPeerMaxPendingOps())
        .add(NodeFlags.PEER_MAX_PENDING_BYTES, limits.getPeerMaxPendingBytes())
        .add(NodeFlags.REPAIR_INTERVAL_S, maintenance.getRepairIntervalSeconds())
        .add(NodeFlags.REPAIR_BYTES_PER_S, maintenance.getRepairBytesPerSecond())
        .add(NodeFlags.TOMBSTONE_GRACE_S, maintenance.getTombstoneGraceSeconds())
        .add(NodeFlags.HINT_WINDOW_S, maintenance.getHintWindowSeconds())
        .add(NodeFlags.MAX_HINT_BYTES, maintenance.getMaxHintBytes())
        .add(NodeFlags.HINT_REPLAY_BYTES_PER_S, maintenance.getHintReplayBytesPerSecond())
        .add(NodeFlags.MAX_CLOCK_OFFSET_MS, clock.getMaxOffsetMs())
        .add(NodeFlags.BLOCK_CACHE_MB, rocksdb.getBlockCacheMb())
        .add(NodeFlags.PEER_FRAMES, compatibility.getPeerFrames())
        .add(NodeFlags.STREAM_FILES, compatibility.getStreamFiles())
        .list();
  }

  private List<String> list() {
    return List.copyOf(flags);
  }

  private NodeSettingFlags add(String flag, Object value) {
    if (value != null) {
      flags.add(flag + "=" + value);
    }
    return this;
  }
}
