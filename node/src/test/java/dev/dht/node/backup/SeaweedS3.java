package dev.dht.node.backup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A real S3 endpoint for tests: SeaweedFS's {@code weed mini} as a process on 127.0.0.1 (master,
 * volume server, filer, S3 gateway, and mini's admin server with its maintenance worker, which
 * cannot be left out; no WebDAV, no web UI), its data in a directory the test gives, one S3
 * identity with a random secret key, and one bucket. {@code scripts/seaweedfs.sh} builds the binary
 * into target/seaweedfs ({@code make prereqs} runs it); the system property {@code
 * dht.seaweedfs.weed} names another one.
 *
 * <p>Requests must be signed (AWS Signature Version 4) with {@link #accessKey()} and {@link
 * #secretKey()}; path-style URLs ({@code endpoint/bucket/key}), any region. A bucket that does not
 * exist is an error, as on AWS (none is created on upload). {@link #kill()} and {@link #restart()}
 * are for "the store goes away and comes back": the restart keeps the data directory, the ports and
 * the keys. weed's output goes to target/seaweedfs/s3-PORT.log.
 */
public final class SeaweedS3 implements AutoCloseable {
  private static final Path WEED =
      Path.of(System.getProperty("dht.seaweedfs.weed", "../target/seaweedfs/weed"));
  private static final String BUCKET = "dht-backups";
  private static final String REGION = "us-east-1";
  private static final String ACCESS_KEY = "dht-test";

  /** The object {@link #awaitWritable()} writes and deletes. */
  private static final String PROBE_KEY = "seaweed-s3-write-probe";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
  // SeaweedFS's master refuses new writes for 15 s after a restart with data (its warm-up)
  private static final Duration WRITABLE_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
  private static final int LOG_TAIL_LINES = 30;

  /** One server's HTTP and gRPC ports. */
  record ServerPorts(int http, int grpc) {}

  /**
   * The ports of mini's five servers, from {@link dev.dht.node.it.Ports}: below 32768, the start of
   * Linux's ephemeral range, as weed's own outgoing connections could otherwise take one of them in
   * the seconds before its server binds.
   */
  record Ports(
      ServerPorts master,
      ServerPorts volume,
      ServerPorts filer,
      ServerPorts s3,
      ServerPorts admin) {
    static Ports free() {
      int[] p = IntStream.range(0, 10).map(i -> dev.dht.node.it.Ports.free()).toArray();
      return new Ports(
          new ServerPorts(p[0], p[1]),
          new ServerPorts(p[2], p[3]),
          new ServerPorts(p[4], p[5]),
          new ServerPorts(p[6], p[7]),
          new ServerPorts(p[8], p[9]));
    }

    /** Each server by the name weed gives its gRPC Unix socket. */
    Map<String, ServerPorts> byName() {
      return Map.of("master", master, "volume", volume, "filer", filer, "s3", s3, "admin", admin);
    }
  }

  private final Path weed;
  private final Path dataDir;
  private final Ports ports;
  private final String secretKey;
  private final Path log;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Process process;

  private SeaweedS3(Path weed, Path dataDir, Ports ports, String secretKey, Path log) {
    this.weed = weed;
    this.dataDir = dataDir;
    this.ports = ports;
    this.secretKey = secretKey;
    this.log = log;
  }

  /**
   * Starts weed with its data in {@code dataDir} (created if missing; give each store its own) and
   * returns once the bucket exists and takes writes.
   */
  public static SeaweedS3 start(Path dataDir) {
    return start(dataDir, WEED);
  }

  static SeaweedS3 start(Path dataDir, Path weed) {
    if (!Files.isExecutable(weed)) {
      throw new IllegalStateException(
          weed.toAbsolutePath().normalize()
              + " is missing: run scripts/seaweedfs.sh (make prereqs does) to build SeaweedFS");
    }
    Ports ports = Ports.free();
    Path log = Path.of("target", "seaweedfs", "s3-" + ports.s3().http() + ".log").toAbsolutePath();
    byte[] secret = new byte[20];
    new SecureRandom().nextBytes(secret);
    String secretKey = HexFormat.of().formatHex(secret);
    SeaweedS3 store = new SeaweedS3(weed, dataDir.toAbsolutePath(), ports, secretKey, log);
    try {
      Files.createDirectories(log.getParent());
      Files.deleteIfExists(log); // an earlier run's, on the same port
      Files.createDirectories(store.dataDir.resolve("weed"));
      Files.writeString(store.s3Config(), S3Config.oneIdentity(ACCESS_KEY, secretKey));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try {
      store.launch();
      store.awaitWritable();
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    return store;
  }

  /** The S3 endpoint, e.g. {@code http://127.0.0.1:23456}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + ports.s3().http());
  }

  public String accessKey() {
    return ACCESS_KEY;
  }

  public String secretKey() {
    return secretKey;
  }

  public String bucket() {
    return BUCKET;
  }

  /** The region to sign with (SeaweedFS accepts any). */
  public String region() {
    return REGION;
  }

  /** The process id of the running weed. */
  public long pid() {
    return process.pid();
  }

  /** SIGTERM, and waits for the exit (SIGKILL after 10 s). Does nothing if weed is not running. */
  public void stop() {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      kill();
    }
    removeSockets();
  }

  /** SIGKILL, and waits for the exit: the store vanishes mid-request, as in a crash. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    removeSockets();
  }

  /**
   * Starts weed again on the same data directory, ports and keys (it must have been stopped or
   * killed) and returns once its S3 gateway answers: reads are served, but for about 15 s a write
   * waits inside its request (SeaweedFS's master refuses new writes while its volume servers may
   * still be reporting). {@link #awaitWritable()} waits that out.
   */
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException("weed (pid " + process.pid() + ") still runs");
    }
    launch();
  }

  /**
   * Returns once the bucket takes a write: puts a small object and deletes it again (a write waits
   * inside its request while the store is not ready, at most 60 s).
   */
  public void awaitWritable() {
    URI probe = endpoint().resolve("/" + BUCKET + "/" + PROBE_KEY);
    SigV4 signer = new SigV4(ACCESS_KEY, secretKey, REGION);
    byte[] content = "probe".getBytes(StandardCharsets.UTF_8);
    long deadline = System.nanoTime() + WRITABLE_TIMEOUT.toNanos();
    int status = -1;
    while (System.nanoTime() < deadline && status != 200) {
      if (!process.isAlive()) {
        throw failure("exited with code " + process.exitValue() + " before it took a write");
      }
      status = send(withTimeout(signer.request("PUT", probe, content, Instant.now())));
      if (status != 200) {
        sleep(Duration.ofMillis(100)); // e.g. 404 NoSuchBucket: mini creates it once all runs
      }
    }
    if (status != 200) {
      throw failure(
          "did not take a write within "
              + WRITABLE_TIMEOUT.toSeconds()
              + " s (last: "
              + status
              + ")");
    }
    int deleted = send(withTimeout(signer.request("DELETE", probe, new byte[0], Instant.now())));
    if (deleted != 204) {
      throw failure("answered " + deleted + " to the DELETE of its write probe");
    }
  }

  @Override
  public void close() {
    stop();
    http.close();
  }

  /** The last lines weed wrote. */
  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join(
          "\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    } catch (IOException e) {
      return "(no log at " + log + ": " + e + ")";
    }
  }

  private Path s3Config() {
    return dataDir.resolve("s3-config.json");
  }

  private void launch() {
    ProcessBuilder builder =
        new ProcessBuilder(command())
            .directory(dataDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    // AWS_ACCESS_KEY_ID & co. would add a second identity; WEED_* would override flags
    builder.environment().keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("WEED_"));
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new IllegalStateException(weed + " does not start: " + e.getMessage(), e);
    }
    awaitS3();
  }

  /** weed's command line: small volumes, nothing that phones home or listens beyond loopback. */
  private List<String> command() {
    return List.of(
        weed.toAbsolutePath().toString(),
        "-logtostderr",
        "mini",
        "-dir=" + dataDir.resolve("weed"),
        "-ip=127.0.0.1",
        "-ip.bind=127.0.0.1",
        "-master.port=" + ports.master().http(),
        "-master.port.grpc=" + ports.master().grpc(),
        "-master.volumeSizeLimitMB=64",
        "-master.telemetry=false",
        "-volume.port=" + ports.volume().http(),
        "-volume.port.grpc=" + ports.volume().grpc(),
        "-volume.max=16",
        "-filer.port=" + ports.filer().http(),
        "-filer.port.grpc=" + ports.filer().grpc(),
        "-filer.localSocket=" + dataDir.resolve("filer.sock"),
        "-s3.port=" + ports.s3().http(),
        "-s3.port.grpc=" + ports.s3().grpc(),
        "-s3.port.iceberg=0",
        "-s3.port.lance=0",
        "-s3.iam=false",
        "-s3.autoCreateBucket=false",
        "-s3.localSocket=" + dataDir.resolve("s3.sock"),
        "-s3.config=" + s3Config(),
        "-webdav=false",
        "-admin.ui=false",
        "-admin.port=" + ports.admin().http(),
        "-admin.port.grpc=" + ports.admin().grpc(),
        "-admin.port.legacy=0",
        "-bucket=" + BUCKET);
  }

  /** Waits until the S3 gateway answers its health check. */
  private void awaitS3() {
    URI health = endpoint().resolve("/healthz");
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw failure("exited with code " + process.exitValue() + " while starting");
      }
      if (send(withTimeout(HttpRequest.newBuilder(health).build())) == 200) {
        return;
      }
      sleep(Duration.ofMillis(50));
    }
    kill();
    throw failure("did not answer on " + health + " within " + START_TIMEOUT.toSeconds() + " s");
  }

  /** {@code request} with a timeout: a write waits inside its request while weed warms up. */
  private static HttpRequest withTimeout(HttpRequest request) {
    return HttpRequest.newBuilder(request, (name, value) -> true)
        .timeout(Duration.ofSeconds(30))
        .build();
  }

  /** The status of the answer to {@code request}; -1 if none came. */
  private int send(HttpRequest request) {
    try {
      return http.send(request, BodyHandlers.discarding()).statusCode();
    } catch (IOException noAnswer) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure("was interrupted waiting for " + request.uri());
    }
  }

  private IllegalStateException failure(String what) {
    return new IllegalStateException(
        "SeaweedFS ("
            + weed
            + ", S3 port "
            + ports.s3().http()
            + ") "
            + what
            + "; the end of "
            + log
            + ":\n"
            + logTail());
  }

  /** weed puts its gRPC Unix sockets in /tmp; a kill leaves them behind. */
  private void removeSockets() {
    ports
        .byName()
        .forEach((server, serverPorts) -> {
          Path socket =
              Path.of("/tmp", "seaweedfs-" + server + "-grpc-" + serverPorts.grpc() + ".sock");
          try {
            Files.deleteIfExists(socket);
          } catch (IOException ignored) {
            // harmless: weed removes a stale socket before it binds
          }
        });
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
