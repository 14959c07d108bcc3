package dev.dht.loadgen.cli;

import dev.dht.contract.LoadGenFlags;
import dev.dht.loadgen.control.ControlServer;
import dev.dht.loadgen.control.GeneratorShare;
import dev.dht.loadgen.control.RunControl;
import dev.dht.loadgen.engine.KeyDistribution;
import dev.dht.loadgen.engine.LoadConfig;
import dev.dht.loadgen.engine.LoadRunner;
import dev.dht.loadgen.engine.ProfileTrigger;
import dev.dht.loadgen.engine.RunResult;
import dev.dht.loadgen.engine.Workload;
import dev.dht.loadgen.report.HtmlReport;
import dev.dht.loadgen.report.JsonSummary;
import dev.dht.loadgen.report.Wrk2Report;
import dev.dht.loadgen.warmup.SelfWarmUp;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code loadgen}: a wrk2-style constant-rate load generator for the dht entity API. Also a
 * subcommand of the node's main jar ({@code java -jar dht.jar loadgen ...}).
 */
@Command(
    name = LoadGenFlags.COMMAND,
    mixinStandardHelpOptions = true,
    sortOptions = false,
    usageHelpAutoWidth = true,
    description = {
      "Sends PUT/GET /v0/entity requests at a constant rate (open model, like wrk2 -R) and reports",
      "latency from intended send times (coordinated omission corrected) in wrk2's format.",
      "Exit codes: 0 run completed (see its errors), 1 failure, 2 bad options."
    })
public final class LoadGenCommand implements Callable<Integer> {
  static final Duration DEFAULT_DURATION = Duration.ofSeconds(10);
  static final int MAX_VALUE_SIZE = 16 << 20;
  static final int MAX_CONNECTIONS = 10_000;

  @Spec CommandSpec spec;

  @Option(
      names = {"-u", LoadGenFlags.URL},
      split = ",",
      defaultValue = "http://127.0.0.1:8080",
      description = "Base URL(s) of the nodes, comma-separated; connections are spread over them.")
  List<String> urls;

  @Option(
      names = {"-w", LoadGenFlags.WORKLOAD},
      defaultValue = "put",
      converter = OptionConverters.WorkloadConverter.class,
      description =
          "put, get, mixed or fill (PUT every key once, in order). Default: ${DEFAULT-VALUE}.")
  Workload workload;

  @Option(
      names = {"-R", LoadGenFlags.RATE},
      required = true,
      converter = OptionConverters.RateConverter.class,
      description = "Target rate in requests/s over all connections (e.g. 5000 or 5k).")
  double rate;

  @Option(
      names = {"-d", LoadGenFlags.DURATION},
      converter = OptionConverters.DurationConverter.class,
      description =
          "Measured duration (e.g. 20s, 2m). Default: 10s; for fill, a time bound of"
              + " 2 x keyspace/rate + 10s.")
  Duration duration;

  @Option(
      names = LoadGenFlags.WARMUP,
      defaultValue = "0s",
      converter = OptionConverters.DurationConverter.class,
      description = "Warm-up before the measured duration, excluded from the results.")
  Duration warmup;

  @Option(
      names = LoadGenFlags.SELF_WARM_UP,
      defaultValue = "0s",
      converter = OptionConverters.DurationConverter.class,
      description =
          "Before anything is sent to --url: the same load against a stand-in in this JVM, until"
              + " its JIT compilers are quiet, at most this long (0s: none). A new JVM otherwise"
              + " compiles its own code during the first seconds of the test.")
  Duration selfWarmUp;

  @Option(
      names = {"-c", LoadGenFlags.CONNECTIONS},
      defaultValue = "16",
      description =
          "Keep-alive connections (one request in flight each). Default: ${DEFAULT-VALUE}.")
  int connections;

  @Option(
      names = {"-t", LoadGenFlags.THREADS},
      defaultValue = "2",
      description = "Event loops. Default: ${DEFAULT-VALUE}.")
  int threads;

  @Option(
      names = {"-k", LoadGenFlags.KEYSPACE},
      defaultValue = "100000",
      description = "Keys <prefix>0 .. <prefix>(keyspace-1). Default: ${DEFAULT-VALUE}.")
  long keyspace;

  @Option(
      names = LoadGenFlags.DISTRIBUTION,
      defaultValue = "uniform",
      converter = OptionConverters.DistributionConverter.class,
      description =
          "Key distribution: uniform or zipfian (key 0 hottest). Default: ${DEFAULT-VALUE}.")
  KeyDistribution distribution;

  @Option(
      names = LoadGenFlags.ZIPF_THETA,
      defaultValue = "0.99",
      description = "Zipfian skew in (0, 1). Default: ${DEFAULT-VALUE}.")
  double zipfTheta;

  @Option(
      names = LoadGenFlags.READ_RATIO,
      defaultValue = "0.5",
      description = "Share of GETs in a mixed workload, in [0, 1]. Default: ${DEFAULT-VALUE}.")
  double readRatio;

  @Option(
      names = LoadGenFlags.VALUE_SIZE,
      defaultValue = "100",
      description = "PUT body size in bytes. Default: ${DEFAULT-VALUE}.")
  int valueSize;

  @Option(names = LoadGenFlags.ACK, description = "ack query parameter (omitted by default).")
  Integer ack;

  @Option(names = LoadGenFlags.FROM, description = "from query parameter (omitted by default).")
  Integer from;

  @Option(
      names = LoadGenFlags.TIMEOUT,
      defaultValue = "2s",
      converter = OptionConverters.DurationConverter.class,
      description = "Connect timeout, and per-request timeout without response data. Default: 2s.")
  Duration timeout;

  @Option(names = LoadGenFlags.SEED, defaultValue = "42", description = "Random seed. Default: 42.")
  long seed;

  @Option(
      names = LoadGenFlags.KEY_PREFIX,
      defaultValue = "k",
      description = "Key prefix. Default: k.")
  String keyPrefix;

  @Option(
      names = LoadGenFlags.PROFILE_NODES,
      split = ",",
      description =
          "dht nodes (URLs) to profile during the measured window (their /v0/admin/profile).")
  List<String> profileNodes;

  @Option(
      names = LoadGenFlags.PROFILE_EVENTS,
      defaultValue = "cpu",
      description = "Events to profile: cpu or wall, alloc, lock. Default: ${DEFAULT-VALUE}.")
  String profileEvents;

  @Option(
      names = LoadGenFlags.CA_FILE,
      description =
          "PEM CA certificates an https --url's certificate must chain to (default: the JVM's"
              + " trusted CAs).")
  Path caFile;

  @Option(
      names = LoadGenFlags.TOKEN_FILE,
      description =
          "File holding a DhtUser's token, sent as Authorization: Bearer with every request (a"
              + " cluster with spec.authentication required).")
  Path tokenFile;

  @Option(
      names = LoadGenFlags.PROFILE_SECRET_FILE,
      description = "File holding the cluster secret the profile requests need.")
  Path profileSecretFile;

  @Option(names = LoadGenFlags.JSON, description = "Write the JSON summary here.")
  Path json;

  @Option(names = LoadGenFlags.HTML, description = "Write a self-contained HTML report here.")
  Path html;

  @Option(
      names = LoadGenFlags.TERMINATION_LOG,
      description = "Write a compact JSON summary (<= 4 KiB) here, e.g. /dev/termination-log.")
  Path terminationLog;

  @Option(
      names = LoadGenFlags.GENERATORS,
      defaultValue = "1",
      description =
          "Generators running this test together; this one takes its share: rate/N and about"
              + " connections/N. Default: ${DEFAULT-VALUE}.")
  int generators;

  @Option(
      names = LoadGenFlags.GENERATOR_INDEX,
      defaultValue = "${env:JOB_COMPLETION_INDEX:-0}",
      description =
          "Which of the generators this is, from 0. Default: $JOB_COMPLETION_INDEX (set in an"
              + " indexed Kubernetes Job), else 0.")
  int generatorIndex;

  @Option(
      names = LoadGenFlags.CONTROL_PORT,
      description =
          "Serve GET /progress, GET /metrics, POST /start?at=<epoch ms>, POST /abort, GET /result"
              + " and POST /release on this port (0: any free port).")
  Integer controlPort;

  @Option(
      names = LoadGenFlags.CONTROL_TOKEN_FILE,
      description =
          "File holding the control port's token: every request to it but GET /metrics must then"
              + " carry Authorization: Bearer <token> (401 otherwise). Without it the port is"
              + " open to whoever reaches it.")
  Path controlTokenFile;

  @Option(
      names = LoadGenFlags.AWAIT_START,
      description =
          "Connect and start only at the time given by POST /start (needs --control-port).")
  boolean awaitStart;

  @Option(
      names = LoadGenFlags.START_TIMEOUT,
      defaultValue = "10m",
      converter = OptionConverters.DurationConverter.class,
      description = "With --await-start: give up if no start time came. Default: ${DEFAULT-VALUE}.")
  Duration startTimeout;

  @Option(
      names = LoadGenFlags.LINGER,
      defaultValue = "0s",
      converter = OptionConverters.DurationConverter.class,
      description =
          "After the run, keep serving GET /result until POST /release, at most this long."
              + " Default: ${DEFAULT-VALUE}.")
  Duration linger;

  @Option(
      names = {"-U", LoadGenFlags.U_LATENCY},
      description = "Also print the uncorrected latency (from actual send times), like wrk2 -U.")
  boolean uncorrected;

  @Option(
      names = {"-q", LoadGenFlags.QUIET},
      description = "No per-second progress on stderr.")
  boolean quiet;

  @Override
  public Integer call() throws Exception {
    LoadConfig config = config();
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ProfileTrigger profile =
        profileNodes == null || profileNodes.isEmpty()
            ? null
            : new ProfileTrigger(
                profileNodes.stream().map(String::strip).map(URI::create).toList(),
                profileEvents,
                profileSecretFile);
    GeneratorShare share = share();
    RunControl control = new RunControl(share, awaitStart ? startTimeout : null);
    String controlToken =
        controlTokenFile == null
            ? null
            : tokenIn(controlTokenFile, LoadGenFlags.CONTROL_TOKEN_FILE);
    try (ControlServer server =
        controlPort == null ? null : ControlServer.start(controlPort, control, controlToken)) {
      if (!selfWarmUp.isZero()) {
        control.warming();
        err.println(SelfWarmUp.run(config, selfWarmUp));
        err.flush();
        control.warm();
      }
      RunResult result = new LoadRunner(config, quiet ? null : err, profile, control).run();
      String text = Wrk2Report.format(result, uncorrected);
      out.print(text);
      out.flush();
      if (control.abortedRun() != null) {
        err.println("loadgen: the run was aborted: " + control.abortedRun());
        err.flush();
      }
      control.finished(
          JsonSummary.toGeneratorResult(
              result, share.index(), share.count(), control.abortedRun()));
      try {
        write(json, JsonSummary.toJson(result) + "\n");
        write(html, HtmlReport.render(result, text));
        write(terminationLog, JsonSummary.toTerminationLog(result));
      } catch (IOException e) {
        err.println("loadgen: cannot write a report: " + e);
        err.flush();
        return 1;
      }
      if (server != null && !linger.isZero() && !control.awaitRelease(linger)) {
        err.println("loadgen: the result was not collected within " + linger.toSeconds() + " s");
        err.flush();
      }
      return 0;
    }
  }

  private GeneratorShare share() {
    check(generators >= 1, "--generators must be >= 1");
    check(
        generatorIndex >= 0 && generatorIndex < generators,
        "--generator-index must be in [0, --generators)");
    return new GeneratorShare(generatorIndex, generators);
  }

  /** Validates the options; a bad one is a usage error (exit code 2) with a message. */
  LoadConfig config() {
    check(rate > 0 && !Double.isInfinite(rate), "--rate must be > 0 (got " + rate + ")");
    check(
        connections >= 1 && connections <= MAX_CONNECTIONS,
        "--connections must be in [1, " + MAX_CONNECTIONS + "]");
    check(threads >= 1, "--threads must be >= 1");
    check(threads <= connections, "--threads must not exceed --connections");
    check(
        generators <= connections,
        "--generators must not exceed --connections (one each at least)");
    check(
        generators == 1 || workload != Workload.FILL,
        "--workload fill writes every key once: it runs as one generator (--generators 1)");
    check(controlPort == null || controlPort >= 0 && controlPort <= 65535, "bad --control-port");
    check(!awaitStart || controlPort != null, "--await-start needs --control-port");
    check(
        controlTokenFile == null || controlPort != null,
        "--control-token-file needs --control-port");
    check(!linger.isNegative(), "--linger must be >= 0");
    check(keyspace >= 1, "--keyspace must be >= 1");
    check(valueSize >= 0 && valueSize <= MAX_VALUE_SIZE, "--value-size must be in [0, 16 MiB]");
    check(
        readRatio >= 0 && readRatio <= 1, "--read-ratio must be in [0, 1] (got " + readRatio + ")");
    check(zipfTheta > 0 && zipfTheta < 1, "--zipf-theta must be in (0, 1) (got " + zipfTheta + ")");
    check(ack == null || ack >= 1, "--ack must be >= 1");
    check(from == null || from >= 1, "--from must be >= 1");
    check(ack == null || from == null || ack <= from, "--ack must not exceed --from");
    check(!timeout.isZero() && !timeout.isNegative(), "--timeout must be > 0");
    check(!warmup.isNegative(), "--warmup must be >= 0");
    check(!selfWarmUp.isNegative(), "--self-warm-up must be >= 0");
    Duration measured = duration;
    if (measured == null) {
      measured =
          workload == Workload.FILL
              ? Duration.ofMillis((long) Math.ceil(2_000.0 * keyspace / rate)).plusSeconds(10)
              : DEFAULT_DURATION;
    }
    check(!measured.isZero() && !measured.isNegative(), "--duration must be > 0");
    GeneratorShare share = share();
    return new LoadConfig(
        parseUrls(),
        workload,
        distribution,
        zipfTheta,
        readRatio,
        keyspace,
        valueSize,
        ack,
        from,
        share.rate(rate),
        measured,
        warmup,
        share.connections(connections),
        share.threads(threads, connections),
        timeout,
        share.seed(seed),
        keyPrefix,
        caFile,
        token());
  }

  /** The token of --token-file, stripped; null without one. */
  private String token() {
    return tokenFile == null ? null : tokenIn(tokenFile, LoadGenFlags.TOKEN_FILE);
  }

  /** The token in {@code file} (given as {@code flag}), stripped; an empty one is refused. */
  private String tokenIn(Path file, String flag) {
    try {
      String token = Files.readString(file).strip();
      if (token.isEmpty()) {
        throw new ParameterException(spec.commandLine(), flag + " " + file + " is empty");
      }
      return token;
    } catch (IOException e) {
      throw new ParameterException(
          spec.commandLine(), flag + " " + file + " cannot be read: " + e.getMessage());
    }
  }

  private List<URI> parseUrls() {
    List<URI> parsed = new ArrayList<>();
    for (String u : urls) {
      String text = u.trim();
      if (text.isEmpty()) {
        continue;
      }
      try {
        URI uri = new URI(text);
        check(
            ("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                && uri.getHost() != null,
            "--url must be an http(s)://host[:port] base URL (got '" + text + "')");
        check(
            uri.getPath() == null || uri.getPath().isEmpty() || uri.getPath().equals("/"),
            "--url must be a base URL without a path (got '" + text + "')");
        parsed.add(uri);
      } catch (URISyntaxException e) {
        throw new ParameterException(
            spec.commandLine(), "bad --url '" + text + "': " + e.getMessage());
      }
    }
    check(!parsed.isEmpty(), "--url needs at least one URL");
    return parsed;
  }

  private void check(boolean ok, String message) {
    if (!ok) {
      throw new ParameterException(spec.commandLine(), message);
    }
  }

  private static void write(Path path, String content) throws IOException {
    if (path == null) {
      return;
    }
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      Files.createDirectories(parent);
    }
    Files.writeString(path, content, StandardCharsets.UTF_8);
  }
}
