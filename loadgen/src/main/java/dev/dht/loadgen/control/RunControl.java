package dev.dht.loadgen.control;

import dev.dht.loadgen.engine.LiveStats;
import dev.dht.loadgen.engine.RunCoordinator;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a generator that runs with others shares with whoever coordinates them (the operator, over
 * {@link ControlServer}): it waits for a start time, says where it is, and keeps its result until
 * it has been collected. Thread-safe: the runner's thread and the control server's thread meet
 * here.
 */
public final class RunControl implements RunCoordinator {
  enum Phase {
    WARMING,
    WAITING,
    STARTING,
    RUNNING,
    DONE
  }

  private final GeneratorShare share;
  private final Duration startTimeout;
  private final CompletableFuture<Long> startAt = new CompletableFuture<>();
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile Phase phase = Phase.WAITING;
  private volatile String result;
  private volatile LiveStats live = LiveStats.NONE;
  private volatile String abortReason;
  private volatile boolean cut;

  /** {@code startTimeout}: how long to wait for a start time; null: start at once. */
  public RunControl(GeneratorShare share, Duration startTimeout) {
    this.share = share;
    this.startTimeout = startTimeout;
  }

  GeneratorShare share() {
    return share;
  }

  Phase phase() {
    return phase;
  }

  /** The start time given, in epoch milliseconds, if any. */
  Optional<Long> startAt() {
    return Optional.ofNullable(startAt.getNow(null));
  }

  /** The generator warms its own JVM first ({@code --self-warm-up}): not ready for a start. */
  public synchronized void warming() {
    if (phase == Phase.WAITING) {
      phase = Phase.WARMING;
    }
  }

  /** Warm: ready for a start time (unless one came meanwhile). */
  public synchronized void warm() {
    if (phase == Phase.WARMING) {
      phase = Phase.WAITING;
    }
  }

  /** Sets the start time; false if another one was set before (the same one again is fine). */
  synchronized boolean start(long epochMillis) {
    if (startAt.isDone()) {
      return startAt.join() == epochMillis;
    }
    phase = Phase.STARTING; // before the runner can wake and move on to RUNNING
    startAt.complete(epochMillis);
    return true;
  }

  /**
   * Blocks until a start time is given; IllegalStateException after the start timeout. -1 at once
   * when the run need not wait (no start timeout).
   */
  @Override
  public long awaitStart() throws InterruptedException {
    if (startTimeout == null) {
      return -1;
    }
    try {
      return startAt.get(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "no start time was given within "
              + startTimeout.toSeconds()
              + " s (generator "
              + share.index()
              + " of "
              + share.count()
              + ")");
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public void running() {
    phase = Phase.RUNNING;
  }

  /** The run is over; {@code resultJson} is served until released. */
  public synchronized void finished(String resultJson) {
    result = resultJson;
    phase = Phase.DONE;
  }

  Optional<String> result() {
    return Optional.ofNullable(result);
  }

  /** Where the run stands, as of its last whole second. */
  LiveStats live() {
    return live;
  }

  @Override
  public void live(LiveStats stats) {
    live = stats;
  }

  /** Ends the run early (the first reason given stays); false once the run is over. */
  synchronized boolean abort(String reason) {
    if (phase == Phase.DONE) {
      return false;
    }
    if (abortReason == null) {
      abortReason = reason == null || reason.isBlank() ? "aborted" : reason;
    }
    return true;
  }

  /** Why an abort was asked for, null if none was. */
  @Override
  public String abortReason() {
    return abortReason;
  }

  /** The runner cut the run short for the abort asked for. */
  @Override
  public void cut() {
    cut = true;
  }

  /** Why the run was cut short, null if it ran its course. */
  public String abortedRun() {
    return cut ? abortReason : null;
  }

  /** The result was collected; false (nothing released) before the run is over. */
  boolean release() {
    if (phase != Phase.DONE) {
      return false;
    }
    released.countDown();
    return true;
  }

  /** Waits until the result was collected (released), at most {@code linger}; true if it was. */
  public boolean awaitRelease(Duration linger) throws InterruptedException {
    return released.await(linger.toMillis(), TimeUnit.MILLISECONDS);
  }
}
