package dev.dht.node.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
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
  private final Counter framedBatches;
  private final Counter readsSpeculated;
  private final Counter readsFetched;
  private final Counter httpBatches;
  private final Counter internalExpired;
  private final Counter clockOffsetRefused;
  private final Counter blockingReadRepairs;
  private final Counter writesStampedAgain;
  private final Counter backgroundReadRepairs;
  private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

  public NodeMetrics() {
    hopSuccess = hopTimer("success");
    hopFailure = hopTimer("failure");
    framedBatches = peerBatches("frames");
    readsSpeculated =
        Counter.builder("dht_read_speculations")
            .description(
                "reads that asked one more replica: the ones asked had not answered within the"
                    + " recent p99 of peer answers")
            .register(registry);
    readsFetched =
        Counter.builder("dht_read_digest_fetches")
            .description(
                "reads whose newest version came as a digest, so its record was fetched from that"
                    + " replica")
            .register(registry);
    httpBatches = peerBatches("http");
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

  /**
   * The counter of client requests refused for {@code reason} by client authentication or
   * authorization (missing credentials, unknown token, over quota, forbidden, ...); the same meter
   * for the same reason.
   */
  public Counter clientRefusals(String reason) {
    return Counter.builder("dht_client_refusals")
        .description("client requests refused by authentication, quota or ACL, by reason")
        .tag("reason", reason)
        .register(registry);
  }

  private Counter peerBatches(String via) {
    return Counter.builder("dht_peer_batches")
        .description("batches of replica ops sent to peers, by way: frames or HTTP requests")
        .tag("via", via)
        .register(registry);
  }

  public void readSpeculated() {
    readsSpeculated.increment();
  }

  public void readDigestFetched() {
    readsFetched.increment();
  }

  /** A batch sent to a peer, as a frame or as an HTTP request. */
  public void peerBatch(boolean framed) {
    (framed ? framedBatches : httpBatches).increment();
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

  /** Registers the meters of a component that measures itself (storage, hints, repair). */
  public void bind(MeterBinder binder) {
    binder.bindTo(registry);
  }

  /** The gauge of hints waiting for {@code target}. */
  public void hintTarget(String target, java.util.concurrent.atomic.AtomicLong pending) {
    Gauge.builder("dht_hints_pending", pending, java.util.concurrent.atomic.AtomicLong::get)
        .description("hints waiting to be replayed, per target")
        .tag("target", target)
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
}
