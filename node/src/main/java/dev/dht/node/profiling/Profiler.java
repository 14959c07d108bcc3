package dev.dht.node.profiling;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.profiler.AsyncProfiler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Profiles this JVM with async-profiler for a while, then keeps one flame graph (HTML) per event of
 * the last session. async-profiler is one per JVM: {@link #SESSION} lets one session run at a time
 * whatever else shares the JVM. The native calls and the conversion run on {@code worker}; the wait
 * between start and stop is a timer, so no thread sleeps.
 *
 * <p>What profiling costs is measured each time: the JVM's CPU time per request served during the
 * session against the {@link #BEFORE_SECONDS} before it ({@link CpuPerRequest}), read once a
 * second.
 */
public final class Profiler {
  private static final Logger log = LoggerFactory.getLogger(Profiler.class);

  /** The JVM's one async-profiler session. */
  private static final AtomicBoolean SESSION = new AtomicBoolean();

  private final Vertx vertx;
  private final WorkerExecutor worker;
  private final Path dir;
  private final String title;
  private final LongSupplier requests;
  private final ArrayDeque<CpuPerRequest.Sample> samples = new ArrayDeque<>(); // guarded by itself
  private volatile State state = State.idle();

  /** How far back the CPU per request before a session is measured. */
  static final int BEFORE_SECONDS = 10;

  /** What the last session did; the flame graphs are files in {@code dir}. */
  private record State(
      String state,
      ProfileRequest request,
      long startedMillis,
      long endedMillis,
      String error,
      CpuPerRequest overhead) {
    static State idle() {
      return new State("idle", null, 0, 0, null, null);
    }
  }

  /** {@code requests}: how many requests this node has served so far. */
  public Profiler(
      Vertx vertx, WorkerExecutor worker, Path dir, String title, LongSupplier requests) {
    this.vertx = vertx;
    this.worker = worker;
    this.dir = dir;
    this.title = title;
    this.requests = requests;
    vertx.setPeriodic(
        0,
        1000,
        id -> {
          synchronized (samples) {
            samples.addLast(sample());
            if (samples.size() > BEFORE_SECONDS + 1) {
              samples.removeFirst();
            }
          }
        });
  }

  private CpuPerRequest.Sample sample() {
    long cpu =
        ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os
            ? os.getProcessCpuTime()
            : 0;
    return new CpuPerRequest.Sample(cpu, requests.getAsLong());
  }

  private CpuPerRequest.Sample oldestSample(CpuPerRequest.Sample otherwise) {
    synchronized (samples) {
      return samples.isEmpty() ? otherwise : samples.getFirst();
    }
  }

  /** Starts a session; false if one runs in this JVM already. */
  public Future<Boolean> start(ProfileRequest request) {
    if (!SESSION.compareAndSet(false, true)) {
      return Future.succeededFuture(false);
    }
    Path jfr = dir.resolve("profile.jfr");
    return worker
        .executeBlocking(
            () -> {
              Files.createDirectories(dir);
              try (var old = Files.newDirectoryStream(dir, "*.html")) {
                for (Path file : old) {
                  Files.delete(file);
                }
              }
              AsyncProfiler.getInstance().execute(request.startCommand(jfr.toString()));
              return null;
            },
            false)
        .map(started -> {
          CpuPerRequest.Sample start = sample();
          CpuPerRequest.Sample before = oldestSample(start);
          state = new State("running", request, System.currentTimeMillis(), 0, null, null);
          vertx.setTimer(
              request.seconds() * 1000L,
              id -> stop(request, jfr, CpuPerRequest.of(before, start, sample())));
          return true;
        })
        .recover(e -> {
          SESSION.set(false);
          state = new State("failed", request, System.currentTimeMillis(), 0, e.toString(), null);
          return Future.failedFuture(e);
        });
  }

  private void stop(ProfileRequest request, Path jfr, CpuPerRequest overhead) {
    long started = state.startedMillis();
    worker
        .executeBlocking(
            () -> {
              // the session ends once its flame graphs are written: a new one would reuse the files
              try {
                AsyncProfiler.getInstance().execute("stop");
                for (ProfileRequest.Event event : request.events()) {
                  JfrToFlame.convert(
                      jfr.toString(),
                      flameGraph(event).toString(),
                      new Arguments(
                          "--" + event.lowerName(),
                          "--title",
                          title + ": " + event.lowerName() + ", " + request.seconds() + " s"));
                }
                Files.deleteIfExists(jfr);
              } finally {
                SESSION.set(false);
              }
              return null;
            },
            false)
        .onSuccess(v -> state = new State("done", request, started, now(), null, overhead))
        .onFailure(e -> {
          log.warn("profile failed: {}", e.toString());
          state = new State("failed", request, started, now(), e.toString(), overhead);
        });
  }

  private static long now() {
    return System.currentTimeMillis();
  }

  private Path flameGraph(ProfileRequest.Event event) {
    return dir.resolve(event.lowerName() + ".html");
  }

  /** The last session's flame graph of {@code event}, if it finished with one. */
  public Future<Buffer> flameGraph(String event) {
    State s = state;
    if (!"done".equals(s.state())) {
      return Future.succeededFuture(null);
    }
    for (ProfileRequest.Event e : s.request().events()) {
      if (e.lowerName().equals(event)) {
        return vertx.fileSystem().readFile(flameGraph(e).toString());
      }
    }
    return Future.succeededFuture(null);
  }

  /** The session's state for the admin endpoint. */
  public JsonObject toJson() {
    State s = state;
    JsonObject json = new JsonObject().put("state", s.state());
    if (s.request() != null) {
      JsonArray events = new JsonArray();
      s.request().events().stream()
          .map(ProfileRequest.Event::lowerName)
          .sorted()
          .forEach(events::add);
      json.put("events", events)
          .put("seconds", s.request().seconds())
          .put("startedMillis", s.startedMillis());
      if (s.endedMillis() > 0) {
        json.put("endedMillis", s.endedMillis());
      }
    }
    if (s.error() != null) {
      json.put("error", s.error());
    }
    if (s.overhead() != null) {
      json.put("overhead", s.overhead().toJson());
    }
    return json;
  }
}
