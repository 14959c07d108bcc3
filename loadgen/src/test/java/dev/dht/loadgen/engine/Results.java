package dev.dht.loadgen.engine;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Hand-made configurations and results for the report tests. */
public final class Results {
  private Results() {}

  public static LoadConfig config(Workload workload, double rate) {
    return new LoadConfig(
        List.of(URI.create("http://127.0.0.1:8080"), URI.create("http://127.0.0.1:8081")),
        workload,
        KeyDistribution.UNIFORM,
        0.99,
        0.5,
        100_000,
        100,
        2,
        3,
        rate,
        Duration.ofSeconds(20),
        Duration.ofSeconds(5),
        64,
        2,
        Duration.ofSeconds(2),
        42,
        "k",
        null,
        null);
  }

  /** A run whose latencies are 1, 2, ..., 10000 microseconds, once each. */
  public static RunResult uniformOneToTenMillis() {
    Histogram h = LatencyRecorder.newHistogram();
    for (int us = 1; us <= 10_000; us++) {
      h.recordValue(us);
    }
    Histogram u = LatencyRecorder.newHistogram();
    u.recordValue(100);
    return new RunResult(
        config(Workload.PUT, 500),
        20.0,
        10_000,
        9_990,
        0,
        10,
        3,
        2,
        1,
        0,
        1_000_000,
        new TreeMap<>(Map.of(201, 9_990L, 503, 10L)),
        h,
        u,
        List.of(240.0, 250.0, 260.0, 250.0),
        List.of(9.9, 9.9, 9.9),
        1_700_000_000_000L,
        1_700_000_020_000L);
  }
}
