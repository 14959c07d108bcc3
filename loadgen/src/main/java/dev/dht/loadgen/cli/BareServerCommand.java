package dev.dht.loadgen.cli;

import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bare-server}: a Vert.x HTTP server that answers every request with the same body, without
 * storage or replication: the ceiling a benchmark compares the node with (same jars, same transport
 * and server settings). Runs until SIGTERM or Ctrl-C.
 */
@Command(
    name = "bare-server",
    mixinStandardHelpOptions = true,
    description = {
      "An HTTP server answering every request with a fixed body (no storage, no replication):",
      "what Vert.x alone holds on this machine, for benchmarks to compare the node with."
    })
public final class BareServerCommand implements Callable<Integer> {
  @Option(names = "--port", defaultValue = "8090", description = "Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(
      names = "--event-loops",
      defaultValue = "0",
      description = "Event loops (0: one per available processor).")
  int eventLoops;

  @Option(
      names = "--body-size",
      defaultValue = "100",
      description = "Bytes of every answer's body. Default: ${DEFAULT-VALUE}.")
  int bodySize;

  @Override
  public Integer call() throws Exception {
    int loops = eventLoops > 0 ? eventLoops : Runtime.getRuntime().availableProcessors();
    byte[] bytes = new byte[bodySize];
    Arrays.fill(bytes, (byte) 'x');
    Buffer body = Buffer.buffer(bytes);
    Vertx vertx =
        Vertx.vertx(new VertxOptions().setPreferNativeTransport(true).setEventLoopPoolSize(loops));
    vertx
        .deployVerticle(
            () -> new Responder(port, body),
            new io.vertx.core.DeploymentOptions()
                .setInstances(loops)
                .setThreadingModel(ThreadingModel.EVENT_LOOP))
        .await();
    System.out.println("bare-server: listening on port " + port + " with " + loops + " loops");
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> {
              vertx.close().await();
              stopped.countDown();
            }));
    stopped.await();
    return 0;
  }

  /** One event loop's server on the shared port, with the node's server settings. */
  private static final class Responder extends VerticleBase {
    private final int port;
    private final Buffer body;

    Responder(int port, Buffer body) {
      this.port = port;
      this.body = body;
    }

    @Override
    public Future<?> start() {
      return vertx
          .createHttpServer(
              new HttpServerOptions()
                  .setPort(port)
                  .setTcpNoDelay(true)
                  .setHttp2ClearTextEnabled(false))
          .requestHandler(request -> request.response().end(body))
          .listen();
    }
  }
}
