package dev.dht.loadgen.engine;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.core.net.OpenSSLEngineOptions;
import io.vertx.core.net.PemTrustOptions;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One "thread" of the generator: a verticle on its own event loop that owns every {@code
 * threads}-th connection and records into its own {@link LatencyRecorder}.
 */
final class LoadWorker extends VerticleBase {
  /** Period of the send tick; a request may leave up to one tick before its intended time. */
  static final long TICK_MILLIS = 1;

  /**
   * Send this early: the tick (like any Netty NIO timer) fires up to a millisecond late, so a
   * request due within the next tick leaves now and is measured from its actual send.
   */
  static final long SEND_EARLY_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);

  private final int index;
  private final LoadConfig config;
  private final KeyChooser keys;
  private final KeyUris uris;
  private final LongSupplier clock;
  private final LatencyRecorder recorder = new LatencyRecorder();
  private final HttpClientAgent client;
  private final List<VertxTransport> transports = new ArrayList<>();
  private final SplittableRandom random;
  private volatile String threadName;

  /**
   * {@code client} is shared by all workers: a connection belongs to the event loop that opens it,
   * which is this worker's.
   */
  LoadWorker(
      int index,
      LoadConfig config,
      HttpClientAgent client,
      KeyChooser keys,
      KeyUris uris,
      LongSupplier clock) {
    this.index = index;
    this.client = client;
    this.config = config;
    this.keys = keys;
    this.uris = uris;
    this.clock = clock;
    this.random = new SplittableRandom(config.seed() * 31 + index);
  }

  LatencyRecorder recorder() {
    return recorder;
  }

  /**
   * The options of the shared client: HTTP/1.1 keep-alive, no pipelining; TLS for https URLs
   * (BoringSSL when its native library is there), trusting {@code --ca-file} or the JVM's CAs, and
   * checking the host name.
   */
  static HttpClientOptions clientOptions(LoadConfig config) {
    int timeout = (int) Math.min(config.timeout().toMillis(), Integer.MAX_VALUE);
    HttpClientOptions options =
        new HttpClientOptions()
            .setKeepAlive(true)
            .setPipelining(false)
            .setTcpNoDelay(true)
            .setConnectTimeout(timeout)
            .setDecompressionSupported(false);
    if (config.urls().stream().anyMatch(u -> "https".equalsIgnoreCase(u.getScheme()))) {
      options
          .setSsl(true)
          .setVerifyHost(true)
          .setSslEngineOptions(
              OpenSSLEngineOptions.isAvailable()
                  ? new OpenSSLEngineOptions()
                  : new JdkSSLEngineOptions());
      if (config.caFile() != null) {
        options.setTrustOptions(new PemTrustOptions().addCertPath(config.caFile().toString()));
      }
    }
    return options;
  }

  @Override
  public Future<?> start() {
    threadName = Thread.currentThread().getName();
    return Future.succeededFuture();
  }

  /** The event loop thread this worker runs on. */
  String threadName() {
    return threadName;
  }

  /** Opens this worker's connections on its event loop; counts {@code opened} down for each. */
  void open(CountDownLatch opened) {
    context.runOnContext(v -> {
      Buffer value = Buffer.buffer(valueBytes());
      for (int g = index; g < config.connections(); g += config.threads()) {
        URI url = config.urls().get(g % config.urls().size());
        VertxTransport t =
            new VertxTransport(
                client,
                url.getHost(),
                port(url),
                config.timeout().toMillis(),
                value,
                config.token());
        transports.add(t);
        t.open(opened::countDown);
      }
    });
  }

  /** The request loops, once begun; only touched on this worker's event loop. */
  private List<RequestLoop> loops = List.of();

  /** Starts sending on the opened connections; each counts {@code done} down once finished. */
  void begin(Schedule schedule, RunWindow window, CountDownLatch done) {
    context.runOnContext(v -> startLoops(schedule, window, done));
  }

  private void startLoops(Schedule schedule, RunWindow window, CountDownLatch done) {
    RequestPlanner planner =
        new RequestPlanner(config.workload(), keys, config.readRatio(), random, uris);
    TickScheduler ticks = new TickScheduler(clock);
    vertx.setPeriodic(TICK_MILLIS, id -> ticks.tick());
    TaskScheduler scheduler =
        (delayNanos, task) -> {
          if (delayNanos <= 0) {
            context.runOnContext(x -> task.run());
          } else {
            ticks.schedule(delayNanos, task);
          }
        };
    List<RequestLoop> loops = new ArrayList<>();
    for (int i = 0; i < transports.size(); i++) {
      loops.add(
          new RequestLoop(
              schedule,
              window,
              index + i * config.threads(),
              config.connections(),
              planner,
              transports.get(i),
              scheduler,
              clock,
              recorder,
              SEND_EARLY_NANOS,
              done::countDown));
    }
    this.loops = loops;
    loops.forEach(RequestLoop::start);
  }

  /** Sends nothing more (an aborted run); requests in flight still complete. */
  void stopSending() {
    context.runOnContext(v -> loops.forEach(RequestLoop::stop));
  }

  private byte[] valueBytes() {
    byte[] bytes = new byte[config.valueSize()];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) ('a' + random.nextInt(26));
    }
    return bytes;
  }

  static int port(URI url) {
    if (url.getPort() > 0) {
      return url.getPort();
    }
    return "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
  }
}
