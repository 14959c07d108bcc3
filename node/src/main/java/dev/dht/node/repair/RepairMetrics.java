package dev.dht.node.repair;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/** Anti-entropy repair: runs, progress, last completion, what it received and purged. */
public record RepairMetrics(RepairStatus repair, TombstoneHorizon tombstones)
    implements MeterBinder {
  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder("dht_repair_runs", repair, RepairStatus::runs)
        .description("repair runs finished (failed ones included)")
        .register(registry);
    FunctionCounter.builder("dht_repair_failed_runs", repair, RepairStatus::failedRuns)
        .description("repair runs that could not reach every peer")
        .register(registry);
    Gauge.builder("dht_repair_running", repair, r -> r.running() ? 1 : 0)
        .description("1 while a repair runs")
        .register(registry);
    Gauge.builder("dht_repair_progress_ratio", repair, RepairStatus::progress)
        .description("peers done in the current repair run, as a fraction (1 when idle)")
        .register(registry);
    Gauge.builder("dht_repair_last_completed_seconds", repair, r -> r.lastCompletedMillis() / 1e3)
        .description("when the last repair run that reached every peer ended (Unix time)")
        .register(registry);
    FunctionCounter.builder("dht_repair_keys_received", repair, RepairStatus::keysReceived)
        .description("records repair received that were newer than this node's")
        .register(registry);
    FunctionCounter.builder("dht_repair_bytes_received", repair, RepairStatus::bytesReceived)
        .description("bytes of records repair received")
        .register(registry);
    FunctionCounter.builder("dht_tombstones_purged", repair, RepairStatus::tombstonesPurged)
        .description("tombstones purged once every replica held them")
        .register(registry);
    Gauge.builder("dht_repair_complete_since_seconds", repair, r -> r.repairedSinceMillis() / 1e3)
        .description("when the last repair run that reached every peer began (Unix time)")
        .register(registry);
    Gauge.builder("dht_tombstones_purged_before_seconds", tombstones, t -> t.millis() / 1e3)
        .description(
            "tombstones stamped before this time are purged (Unix time); it stays put while a"
                + " peer is away")
        .register(registry);
  }
}
