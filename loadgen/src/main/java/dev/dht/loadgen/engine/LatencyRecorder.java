package dev.dht.loadgen.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Outcomes of the requests of one event loop (the single writer); the progress printer and the
 * final report read it from another thread. Latencies are recorded in microseconds, up to a day
 * with 3 significant digits (like wrk2). Warm-up requests only feed the per-second progress.
 */
public final class LatencyRecorder {
  static final long MAX_MICROS = TimeUnit.DAYS.toMicros(1);
  static final int SIGNIFICANT_DIGITS = 3;

  /** Counters; the {@code ALL_} ones include warm-up and feed the progress line. */
  enum Count {
    RESPONSES,
    OK,
    NOT_FOUND,
    NON_2XX,
    CONNECT_ERRORS,
    TIMEOUTS,
    IO_ERRORS,
    BODY_BYTES,
    ALL_RESPONSES,
    ALL_FAILURES,
    ALL_NON_2XX,
    IN_FLIGHT
  }

  private static final int STATUS_SLOTS = 600;

  private final AtomicLongArray counts = new AtomicLongArray(Count.values().length);
  private final AtomicLongArray statusCounts = new AtomicLongArray(STATUS_SLOTS);

  /** For the per-second progress: each response in exactly one of the two, by its phase. */
  private final SingleWriterRecorder warmupProgress = newRecorder();

  private final SingleWriterRecorder measuredProgress = newRecorder();
  private final SingleWriterRecorder uncorrected = newRecorder();

  /** Measured latencies from intended send times, by third of the window they were due in. */
  private final SingleWriterRecorder[] thirds = {newRecorder(), newRecorder(), newRecorder()};

  private volatile long lastCompletionNanos = Long.MIN_VALUE;
  private volatile boolean closed;

  public static Histogram newHistogram() {
    return new Histogram(1, MAX_MICROS, SIGNIFICANT_DIGITS);
  }

  private static SingleWriterRecorder newRecorder() {
    return new SingleWriterRecorder(1, MAX_MICROS, SIGNIFICANT_DIGITS);
  }

  void sent() {
    add(Count.IN_FLIGHT, 1);
  }

  /**
   * A response arrived. {@code third} is the third of the measured window the request was due in
   * ({@link RunWindow#WARMUP}: not measured). {@code correctedNanos} is measured from the intended
   * send time, {@code uncorrectedNanos} from the actual one.
   */
  void response(
      int third,
      boolean put,
      int status,
      long correctedNanos,
      long uncorrectedNanos,
      long bodyBytes,
      long nowNanos) {
    if (closed) {
      return;
    }
    add(Count.IN_FLIGHT, -1);
    add(Count.ALL_RESPONSES, 1);
    boolean ok = put ? status == 201 : status == 200 || status == 404;
    if (!ok) {
      add(Count.ALL_NON_2XX, 1);
    }
    if (third == RunWindow.WARMUP) {
      warmupProgress.recordValue(micros(correctedNanos));
      return;
    }
    measuredProgress.recordValue(micros(correctedNanos));
    add(Count.RESPONSES, 1);
    add(ok ? (status == 404 ? Count.NOT_FOUND : Count.OK) : Count.NON_2XX, 1);
    add(Count.BODY_BYTES, bodyBytes);
    if (status >= 0 && status < STATUS_SLOTS) {
      statusCounts.setRelease(status, statusCounts.getPlain(status) + 1);
    }
    thirds[third].recordValue(micros(correctedNanos));
    uncorrected.recordValue(micros(uncorrectedNanos));
    lastCompletionNanos = nowNanos;
  }

  /** A request produced no response. */
  void failure(boolean measured, Transport.Failure failure, long nowNanos) {
    if (closed) {
      return;
    }
    add(Count.IN_FLIGHT, -1);
    add(Count.ALL_FAILURES, 1);
    if (!measured) {
      return;
    }
    add(
        switch (failure) {
          case CONNECT -> Count.CONNECT_ERRORS;
          case TIMEOUT -> Count.TIMEOUTS;
          case IO -> Count.IO_ERRORS;
        },
        1);
    lastCompletionNanos = nowNanos;
  }

  /** Stops recording: late callbacks after the end of the run are ignored. */
  void close() {
    closed = true;
  }

  long count(Count c) {
    return counts.get(c.ordinal());
  }

  long statusCount(int status) {
    return statusCounts.get(status);
  }

  static int statusSlots() {
    return STATUS_SLOTS;
  }

  long lastCompletionNanos() {
    return lastCompletionNanos;
  }

  /** Latencies of warm-up requests since the previous call; for the per-second progress. */
  Histogram warmupInterval(Histogram recycle) {
    return warmupProgress.getIntervalHistogram(recycle);
  }

  /** Latencies of measured requests since the previous call; for the per-second progress. */
  Histogram measuredInterval(Histogram recycle) {
    return measuredProgress.getIntervalHistogram(recycle);
  }

  /**
   * All measured latencies from intended send times (the union of the thirds); call once, at the
   * end, instead of {@link #correctedThird}.
   */
  Histogram correctedTotal() {
    Histogram total = newHistogram();
    for (int t = 0; t < thirds.length; t++) {
      total.add(correctedThird(t));
    }
    return total;
  }

  /** The measured latencies (from intended send times) due in one third of the window; once. */
  Histogram correctedThird(int third) {
    return thirds[third].getIntervalHistogram();
  }

  /** All measured latencies from actual send times; call once, at the end. */
  Histogram uncorrectedTotal() {
    return uncorrected.getIntervalHistogram();
  }

  private void add(Count c, long delta) {
    int i = c.ordinal();
    counts.setRelease(i, counts.getPlain(i) + delta);
  }

  private static long micros(long nanos) {
    return Math.min(Math.max(nanos, 0) / 1000, MAX_MICROS);
  }
}
