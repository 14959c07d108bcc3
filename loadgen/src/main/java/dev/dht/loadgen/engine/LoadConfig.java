package dev.dht.loadgen.engine;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A validated run configuration (the {@code loadgen} command's options give each field's meaning).
 */
public record LoadConfig(
    List<URI> urls,
    Workload workload,
    KeyDistribution distribution,
    double zipfTheta,
    double readRatio,
    long keyspace,
    int valueSize,
    Integer ack,
    Integer from,
    double rate,
    Duration duration,
    Duration warmup,
    int connections,
    int threads,
    Duration timeout,
    long seed,
    String keyPrefix,
    Path caFile,
    String token) {

  static final Duration MAX_DRAIN = Duration.ofSeconds(5);

  public LoadConfig {
    urls = List.copyOf(urls);
  }

  /** The same load against {@code url} alone, for {@code duration} and without a warm-up. */
  public LoadConfig against(URI url, Duration duration) {
    return new LoadConfig(
        List.of(url),
        workload,
        distribution,
        zipfTheta,
        readRatio,
        keyspace,
        valueSize,
        ack,
        from,
        rate,
        duration,
        Duration.ZERO,
        connections,
        threads,
        timeout,
        seed,
        keyPrefix,
        caFile,
        token);
  }

  /** How long in-flight requests may finish after the last send before the run is cut. */
  Duration drainGrace() {
    Duration t = timeout.compareTo(MAX_DRAIN) < 0 ? timeout : MAX_DRAIN;
    return t.plusMillis(250);
  }

  /** The time frame of a run whose first slot is due at {@code startNanos}. */
  public RunWindow window(long startNanos) {
    long measureFrom = startNanos + warmup.toNanos();
    long sendUntil = measureFrom + duration.toNanos();
    long maxSlots = workload == Workload.FILL ? keyspace : Long.MAX_VALUE;
    return new RunWindow(
        startNanos,
        measureFrom,
        sendUntil,
        sendUntil + drainGrace().toNanos(),
        maxSlots,
        workload != Workload.FILL);
  }

  KeyChooser keyChooser() {
    return distribution.chooser(keyspace, zipfTheta);
  }

  public String urlText() {
    return String.join(",", urls.stream().map(URI::toString).toList());
  }
}
