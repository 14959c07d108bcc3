package dev.dht.node.metrics;

import dev.dht.node.hints.HintStore;
import dev.dht.node.repair.RepairStatus;
import dev.dht.node.storage.Storage;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;
import org.rocksdb.TickerType;

/**
 * The node's Prometheus metrics: requests per operation and status with latency histograms, replica
 * hops, overload and deadline answers, in-flight work and RocksDB statistics. Meters are created
 * once and looked up without allocation on the request path where possible.
 */
public final class NodeMetrics implements AutoCloseable {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

  /** Per operation, a timer per status code, filled lazily; a racing fill gets the same meter. */
  private final Map<String, Timer[]> requestTimers = new ConcurrentHashMap<>();

  private final LongAdder requestsServed = new LongAdder();
  private final Timer hopSuccess;
  private final Timer hopFailure;
  private final Counter peerOpsShed;
  private final Counter internalExpired;
  private final Counter clockOffsetRefused;
  private final Counter blockingReadRepairs;
  private final Counter writesStampedAgain;
  private final Counter backgroundReadRepairs;
  private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

  public NodeMetrics() {
    hopSuccess = hopTimer("success");
    hopFailure = hopTimer("failure");
    peerOpsShed =
        Counter.builder("dht_peer_ops_shed")
            .description("replica ops to a peer failed fast: too much queued for it, or too late")
            .register(registry);
    internalExpired =
        Counter.builder("dht_internal_expired")
            .description("internal batches dropped: the coordinator's deadline had passed")
            .register(registry);
    clockOffsetRefused =
        Counter.builder("dht_clock_offset_refused")
            .description("internal batches refused: a write stamped beyond the max clock offset")
            .register(registry);
    writesStampedAgain =
        Counter.builder("dht_writes_stamped_again")
            .description("writes stamped again above a newer version a replica held")
            .register(registry);
    blockingReadRepairs = readRepairCounter("blocking");
    backgroundReadRepairs = readRepairCounter("background");
    new JvmMemoryMetrics().bindTo(registry);
    gcMetrics.bindTo(registry);
  }

  private Counter readRepairCounter(String mode) {
    return Counter.builder("dht_read_repairs")
        .description("replicas repaired by reads: before the answer (blocking), or after it")
        .tag("mode", mode)
        .register(registry);
  }

  public void writeStampedAgain() {
    writesStampedAgain.increment();
  }

  /** A read wrote its answer to {@code replicas} that were behind. */
  public void readRepair(boolean blocking, int replicas) {
    (blocking ? blockingReadRepairs : backgroundReadRepairs).increment(replicas);
  }

  /**
   * Exposes one kind of traffic's admission ({@code client} or {@code internal}): requests in
   * flight and the bytes of their bodies held.
   */
  public void bindAdmission(String traffic, IntSupplier inflight, LongSupplier bodyBytes) {
    Gauge.builder("dht_inflight_requests", inflight::getAsInt)
        .description("requests admitted and not yet answered")
        .tag("traffic", traffic)
        .register(registry);
    Gauge.builder("dht_inflight_body_bytes", bodyBytes::getAsLong)
        .description("bytes of request bodies held by admitted requests")
        .tag("traffic", traffic)
        .register(registry);
  }

  public void peerOpShed() {
    peerOpsShed.increment();
  }

  public void internalExpired() {
    internalExpired.increment();
  }

  public void clockOffsetRefused() {
    clockOffsetRefused.increment();
  }

  /** Exposes RocksDB properties and tickers; read at scrape time, which runs on a worker. */
  public void bindStorage(Storage storage) {
    storageGauge(storage, "rocksdb.estimate-num-keys", "dht_rocksdb_estimated_keys");
    storageGauge(storage, "rocksdb.total-sst-files-size", "dht_rocksdb_sst_bytes");
    storageGauge(storage, "rocksdb.cur-size-all-mem-tables", "dht_rocksdb_memtable_bytes");
    storageGauge(storage, "rocksdb.block-cache-usage", "dht_rocksdb_block_cache_bytes");
    for (TickerType ticker :
        new TickerType[] {
          TickerType.BYTES_WRITTEN,
          TickerType.BYTES_READ,
          TickerType.BLOCK_CACHE_HIT,
          TickerType.BLOCK_CACHE_MISS,
          TickerType.STALL_MICROS
        }) {
      Gauge.builder(
              "dht_rocksdb_ticker",
              storage,
              s -> s.isOpen() ? s.statistics().getTickerCount(ticker) : Double.NaN)
          .tag("ticker", ticker.name().toLowerCase())
          .register(registry);
    }
  }

  /** Exposes the hint store's counters; {@link #hintTarget} adds each target's gauge. */
  public void bindHints(HintStore hints) {
    hintCounter(
        hints, "stored", "hints written for replicas that missed a write", HintStore::stored);
    hintCounter(
        hints, "replayed", "hints replayed to their target and deleted", HintStore::replayed);
    hintCounter(
        hints,
        "expired",
        "hints deleted unreplayed: older than the hint window",
        HintStore::expired);
    hintCounter(
        hints,
        "dropped",
        "hints not kept: beyond the size bound, or unwritable",
        HintStore::dropped);
    Gauge.builder("dht_hints_bytes", hints, HintStore::storedBytes)
        .description("bytes of hints on disk")
        .register(registry);
  }

  /** Exposes anti-entropy repair: runs, progress, last completion, what it received and purged. */
  public void bindRepair(RepairStatus repair) {
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
        .description("tombstones purged once older than the grace period")
        .register(registry);
  }

  /** The gauge of hints waiting for {@code target}. */
  public void hintTarget(String target, java.util.concurrent.atomic.AtomicLong pending) {
    Gauge.builder("dht_hints_pending", pending, java.util.concurrent.atomic.AtomicLong::get)
        .description("hints waiting to be replayed, per target")
        .tag("target", target)
        .register(registry);
  }

  /**
   * A counter read from the hint store (which the node holds, as the meter's weak reference needs).
   */
  private void hintCounter(
      HintStore hints, String what, String description, ToDoubleFunction<HintStore> count) {
    FunctionCounter.builder("dht_hints_" + what, hints, count)
        .description(description)
        .register(registry);
  }

  /** A request answered with {@code status} after {@code nanos} (499: its client left first). */
  public void request(String operation, int status, long nanos) {
    requestsServed.increment();
    Timer[] byStatus = requestTimers.computeIfAbsent(operation, op -> new Timer[600]);
    Timer timer = byStatus[status];
    if (timer == null) {
      timer =
          Timer.builder("dht_requests")
              .description("requests by operation and status")
              .tag("operation", operation)
              .tag("status", Integer.toString(status))
              .publishPercentileHistogram()
              .minimumExpectedValue(Duration.ofNanos(50_000))
              .maximumExpectedValue(Duration.ofSeconds(10))
              .register(registry);
      byStatus[status] = timer;
    }
    timer.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** Every request answered so far, whatever its path or status. */
  public long requestsServed() {
    return requestsServed.sum();
  }

  /** One call to another node's replica. */
  public void hop(boolean success, long nanos) {
    (success ? hopSuccess : hopFailure).record(nanos, TimeUnit.NANOSECONDS);
  }

  /** The Prometheus text; may read RocksDB, so call it on a worker. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    gcMetrics.close();
    registry.close();
  }

  private Timer hopTimer(String outcome) {
    return Timer.builder("dht_replica_hops")
        .description("coordinator calls to other nodes' replicas")
        .tag("outcome", outcome)
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofNanos(50_000))
        .maximumExpectedValue(Duration.ofSeconds(10))
        .register(registry);
  }

  private void storageGauge(Storage storage, String property, String name) {
    Gauge.builder(name, storage, s -> s.longProperty(property)).register(registry);
  }
}
