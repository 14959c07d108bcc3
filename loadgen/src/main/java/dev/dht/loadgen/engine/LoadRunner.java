package dev.dht.loadgen.engine;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClientAgent;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * Runs one load: a Vert.x instance with one event loop per thread, a {@link LoadWorker} on each,
 * and the calling thread printing progress until every connection is done or the window's hard
 * stop, whichever comes first. Every run is bounded: warm-up + duration + drain grace, plus a
 * bounded shutdown.
 */
public final class LoadRunner {
  private static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long SETUP_TIMEOUT_SECONDS = 10;
  private static final long CLOSE_TIMEOUT_SECONDS = 3;

  private final LoadConfig config;
  private final PrintWriter progressOut;
  private final LongSupplier clock = System::nanoTime;

  private final ProfileTrigger profile;
  private final RunCoordinator control;

  /** {@code progressOut} may be null for a quiet run. */
  public LoadRunner(LoadConfig config, PrintWriter progressOut) {
    this(config, progressOut, null, null);
  }

  /**
   * With {@code profile} (null: none) armed for the measured window, and {@code control} (null:
   * start at once) giving the start time of a run together with other generators.
   */
  public LoadRunner(
      LoadConfig config, PrintWriter progressOut, ProfileTrigger profile, RunCoordinator control) {
    this.config = config;
    this.progressOut = progressOut;
    this.profile = profile;
    this.control = control;
  }

  public RunResult run() throws InterruptedException {
    Vertx vertx =
        Vertx.vertx(
            new VertxOptions()
                .setPreferNativeTransport(true) // epoll on Linux: fewer syscalls than NIO
                .setEventLoopPoolSize(config.threads())
                .setWorkerPoolSize(1)
                .setInternalBlockingPoolSize(1));
    try {
      KeyChooser keys = config.keyChooser();
      KeyUris uris =
          new KeyUris(config.keyPrefix(), config.keyspace(), config.ack(), config.from());
      // Created before the workers: creating a client takes a turn of the round-robin that
      // gives each deployment its event loop, and the workers must get one each.
      HttpClientAgent client = vertx.createHttpClient(LoadWorker.clientOptions(config));
      List<LoadWorker> workers = new ArrayList<>();
      for (int i = 0; i < config.threads(); i++) {
        LoadWorker worker = new LoadWorker(i, config, client, keys, uris, clock);
        await(vertx.deployVerticle(worker).toCompletionStage().toCompletableFuture());
        workers.add(worker);
      }
      long loops = workers.stream().map(LoadWorker::threadName).distinct().count();
      if (loops < workers.size() && progressOut != null) {
        progressOut.printf("warning: %d workers share %d event loops%n", workers.size(), loops);
      }
      // Wait before connecting: a long wait would otherwise leave the connections idle.
      long startAtMillis = control == null ? -1 : control.awaitStart();
      CountDownLatch opened = new CountDownLatch(config.connections());
      workers.forEach(w -> w.open(opened));
      // Connect and prime first (bounded by twice the timeout), so that the schedule starts warm.
      opened.await(2 * config.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
      List<LatencyRecorder> recorders = workers.stream().map(LoadWorker::recorder).toList();
      long now = clock.getAsLong();
      long epochOffsetNanos = System.currentTimeMillis() * 1_000_000L - now;
      long start = now + START_DELAY_NANOS;
      if (startAtMillis >= 0) {
        // late (connecting took longer than the coordinator allowed): start now, the measured
        // windows will show it
        start = Math.max(start, startAtMillis * 1_000_000L - epochOffsetNanos);
      }
      if (control != null) {
        control.running();
      }
      RunWindow window = config.window(start);
      if (profile != null) {
        profile.armFor(window, config.duration(), clock, progressOut);
      }
      Schedule schedule = new Schedule(config.rate(), start);
      CountDownLatch done = new CountDownLatch(config.connections());
      workers.forEach(w -> w.begin(schedule, window, done));
      Progress progress =
          new Progress(
              recorders, window, progressOut, control == null ? stats -> {} : control::live);
      long end = waitForEnd(done, window, progress);
      // aborted only if cut: an abort that came once every connection was done changes nothing
      boolean aborted = control != null && control.abortReason() != null && done.getCount() > 0;
      if (aborted) {
        control.cut();
        workers.forEach(LoadWorker::stopSending);
        // the window ends at the abort; what is in flight may still answer within the grace
        done.await(config.drainGrace().toMillis(), TimeUnit.MILLISECONDS);
      }
      recorders.forEach(LatencyRecorder::close);
      return RunResult.collect(
          config, window, recorders, progress.threadRateSamples(), end, epochOffsetNanos, aborted);
    } finally {
      close(vertx);
    }
  }

  /**
   * Prints progress each second until all connections are done, the hard stop, or an abort; returns
   * now.
   */
  private long waitForEnd(CountDownLatch done, RunWindow window, Progress progress)
      throws InterruptedException {
    long nextTick = window.startNanos() + SECOND;
    while (true) {
      long now = clock.getAsLong();
      if (now >= window.hardStopNanos()) {
        return now;
      }
      long until = Math.min(nextTick, window.hardStopNanos());
      if (done.await(Math.max(until - now, 0), TimeUnit.NANOSECONDS)) {
        return clock.getAsLong();
      }
      now = clock.getAsLong();
      if (now >= nextTick) {
        progress.tick(now);
        nextTick += SECOND;
        if (control != null && control.abortReason() != null) {
          return now;
        }
      }
    }
  }

  private static void await(java.util.concurrent.CompletableFuture<?> f)
      throws InterruptedException {
    try {
      f.get(SETUP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot start the load workers", e);
    }
  }

  private static void close(Vertx vertx) {
    try {
      vertx
          .close()
          .toCompletionStage()
          .toCompletableFuture()
          .get(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Stuck connections must not keep the process alive; the caller exits anyway.
    }
  }
}
