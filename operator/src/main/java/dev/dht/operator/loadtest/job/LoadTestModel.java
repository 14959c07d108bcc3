package dev.dht.operator.loadtest.job;

import static java.util.Objects.requireNonNullElse;

import dev.dht.contract.LoadGenFlags;
import dev.dht.operator.cluster.ClusterModel;
import dev.dht.operator.cluster.CpuCores;
import dev.dht.operator.cluster.ImagePull;
import dev.dht.operator.cluster.Scheduling;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.DhtLoadTestSpec.KeyDistribution;
import dev.dht.operator.loadtest.DhtLoadTestSpec.Operation;
import dev.dht.operator.tls.NodeTlsSecret;
import dev.dht.operator.users.UserSecret;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One load test with every default resolved and its target chosen: names, labels and the load
 * generator's command line. Pure: the Job is built from it.
 */
public record LoadTestModel(
    String name,
    String namespace,
    String url,
    String image,
    Operation operation,
    double readRatio,
    long keyspace,
    String keyPrefix,
    int valueSize,
    KeyDistribution distribution,
    Integer ack,
    Integer from,
    int rate,
    Duration duration,
    Duration warmup,
    int connections,
    int threads,
    ResourceRequirements resources,
    Scheduling scheduling,
    String clusterName,
    Profiling profiling,
    int parallelism,
    boolean spreadAcrossNodes,
    String caSecretName,
    String tokenSecretName,
    ImagePull imagePull) {

  /**
   * The nodes to profile during the measured window (their member URLs; empty: none) and the
   * events. The operator asks them itself, on their admin port ({@code ProfiledNodes}): the
   * generators need neither the cluster secret nor a way to the admin port.
   */
  public record Profiling(List<String> nodes, String events) {
    static final Profiling NONE = new Profiling(List.of(), "");

    public boolean any() {
      return !nodes.isEmpty();
    }

    public static Profiling of(DhtLoadTestSpec.Profile profile, Target target) {
      if (profile == null || profile.getEvents().isEmpty() || target.secretName() == null) {
        return NONE;
      }
      var wanted = profile.getNodes();
      var nodes =
          target.nodes().stream()
              .filter(url -> wanted.isEmpty() || wanted.contains(podOf(url)))
              .toList();
      String events =
          String.join(
              ",",
              profile.getEvents().stream()
                  .distinct()
                  .map(DhtLoadTestSpec.ProfileEvent::cliName)
                  .toList());
      return new Profiling(nodes, events);
    }

    /** These nodes only: those whose pod is one of {@code pods}. */
    public Profiling only(List<String> pods) {
      return new Profiling(
          nodes.stream().filter(url -> pods.contains(podOf(url))).toList(), events);
    }

    /** The pod name of a node URL: the first label of its host. */
    public static String podOf(String url) {
      String host = java.net.URI.create(url).getHost();
      return host.contains(".") ? host.substring(0, host.indexOf('.')) : host;
    }
  }

  /** Where the Job pod mounts a TLS cluster's CA bundle. */
  static final String CA_DIR = "/etc/dht-ca";

  /** Where the Job pod mounts its DhtUser's token Secret. */
  static final String TOKEN_DIR = "/etc/dht-token";

  /** Where the Job pod mounts the test's control token Secret ({@link ControlToken}). */
  static final String CONTROL_TOKEN_DIR = "/etc/dht-control";

  /** Key under which the reconciler hands the model to the Job dependent. */
  public static final String CONTEXT_KEY = LoadTestModel.class.getName();

  public static final String CONTAINER = "loadgen";
  public static final String TERMINATION_LOG = "/dev/termination-log";

  /**
   * Beyond warm-up + duration the Job may take this long (or a quarter of the run, if longer):
   * scheduling, an image pull, JVM start and the load generator's bounded drain (at most 5.25 s).
   */
  static final Duration MIN_DEADLINE_MARGIN = Duration.ofMinutes(3);

  /** The model with the operator's default image pull (IfNotPresent, no pull secrets). */
  public static LoadTestModel of(DhtLoadTest test, Target target) {
    return of(test, target, ImagePull.DEFAULT);
  }

  /** {@code imagePull}: how the generator pods pull their image ({@link GeneratorImagePull}). */
  public static LoadTestModel of(DhtLoadTest test, Target target, ImagePull imagePull) {
    var spec = test.getSpec();
    var workload = requireNonNullElse(spec.getWorkload(), new DhtLoadTestSpec.Workload());
    int connections = requireNonNullElse(spec.getConnections(), 64);
    return new LoadTestModel(
        test.getMetadata().getName(),
        test.getMetadata().getNamespace(),
        target.url(),
        target.image(),
        requireNonNullElse(workload.getOperation(), Operation.PUT),
        requireNonNullElse(workload.getReadRatio(), 0.5),
        requireNonNullElse(workload.getKeyspace(), 100_000L),
        workload.getKeyPrefix() != null ? workload.getKeyPrefix() : defaultKeyPrefix(test),
        requireNonNullElse(workload.getValueSize(), 100),
        requireNonNullElse(workload.getKeyDistribution(), KeyDistribution.UNIFORM),
        spec.getAck(),
        spec.getFrom(),
        spec.getRate(),
        GoDuration.parse(requireNonNullElse(spec.getDuration(), "60s")),
        GoDuration.parse(requireNonNullElse(spec.getWarmup(), "10s")),
        connections,
        spec.getThreads() != null
            ? spec.getThreads()
            : Math.min(
                connections,
                CpuCores.of(
                    requireNonNullElse(spec.getResources(), JobDependent.defaultResources()))),
        spec.getResources(),
        spec.getScheduling(),
        spec.getTargetUrl() == null ? spec.getClusterRef().getName() : null,
        Profiling.of(spec.getProfile(), target),
        parallelism(spec),
        Boolean.TRUE.equals(spec.getSpreadAcrossNodes()),
        target.caSecretName(),
        target.userName() == null ? null : UserSecret.nameOf(target.userName()),
        imagePull);
  }

  public static int parallelism(DhtLoadTestSpec spec) {
    return requireNonNullElse(spec.getParallelism(), 1);
  }

  /** Several generators: they start together and hand their histograms to the operator. */
  boolean parallel() {
    return parallelism > 1;
  }

  /**
   * At most this long, a generator first sends the test's load to a stand-in in its own JVM, until
   * its JIT is quiet: a new JVM otherwise compiles its own code in the first seconds of the test,
   * on the nodes' CPUs, and reports that as their latency.
   */
  static final Duration SELF_WARM_UP = Duration.ofSeconds(20);

  /** How long a generator of a parallel test waits for the others before it gives up. */
  static final Duration START_TIMEOUT = Duration.ofMinutes(5);

  /** How long a finished generator of a parallel test waits for its result to be collected. */
  static final Duration LINGER = Duration.ofMinutes(2);

  /** Unique to the test: its name and the start of its uid. */
  static String defaultKeyPrefix(DhtLoadTest test) {
    String uid = requireNonNullElse(test.getMetadata().getUid(), "");
    return test.getMetadata().getName() + "-" + uid.substring(0, Math.min(8, uid.length())) + "-";
  }

  static String jobName(String testName) {
    return testName + "-loadgen";
  }

  public static String reportName(String testName) {
    return testName + "-report";
  }

  public String jobName() {
    return jobName(name);
  }

  public String reportName() {
    return reportName(name);
  }

  /**
   * Labels of the Job, its pod, the report and the control Secret; managed-by lets our informers
   * watch only ours.
   */
  public Map<String, String> labels() {
    return labels(name);
  }

  public static Map<String, String> labels(String testName) {
    var labels = new LinkedHashMap<String, String>();
    labels.put("app.kubernetes.io/name", "dht-loadgen");
    labels.put("app.kubernetes.io/instance", testName);
    labels.put("app.kubernetes.io/component", "loadtest");
    labels.put("app.kubernetes.io/managed-by", ClusterModel.MANAGED_BY);
    return labels;
  }

  /**
   * A ConfigMap of the test's, with its labels, owned by it (garbage-collected with it): the
   * report, and the results the generators of a parallel test hand over.
   */
  public static ConfigMap ownedConfigMap(DhtLoadTest test, String name, Map<String, String> data) {
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(test.getMetadata().getNamespace())
        .withLabels(labels(test.getMetadata().getName()))
        .withOwnerReferences(Owners.controller(test))
        .endMetadata()
        .withData(data)
        .build();
  }

  /**
   * The node image's entrypoint runs {@code dev.dht.app.DhtMain}; these are its arguments. The
   * summary goes to the termination message, the wrk2 report to stdout (the pod log). A generator
   * of a parallel test learns its index from the indexed Job and takes its share of the rate and
   * connections itself.
   */
  public List<String> args() {
    var args = new ArrayList<String>();
    args.add(LoadGenFlags.COMMAND);
    add(args, LoadGenFlags.URL, url);
    if (caSecretName != null) {
      add(args, LoadGenFlags.CA_FILE, CA_DIR + "/" + NodeTlsSecret.CA);
    }
    if (tokenSecretName != null) {
      add(args, LoadGenFlags.TOKEN_FILE, TOKEN_DIR + "/" + UserSecret.TOKEN);
    }
    add(args, LoadGenFlags.WORKLOAD, operation.cliName());
    add(args, LoadGenFlags.RATE, Integer.toString(rate));
    add(args, LoadGenFlags.DURATION, GoDuration.toLoadgenArg(duration));
    add(args, LoadGenFlags.WARMUP, GoDuration.toLoadgenArg(warmup));
    add(args, LoadGenFlags.SELF_WARM_UP, GoDuration.toLoadgenArg(SELF_WARM_UP));
    add(args, LoadGenFlags.CONNECTIONS, Integer.toString(connections));
    add(args, LoadGenFlags.THREADS, Integer.toString(threads));
    add(args, LoadGenFlags.KEYSPACE, Long.toString(keyspace));
    add(args, LoadGenFlags.KEY_PREFIX, keyPrefix);
    add(args, LoadGenFlags.VALUE_SIZE, Integer.toString(valueSize));
    add(args, LoadGenFlags.DISTRIBUTION, distribution.cliName());
    if (operation == Operation.MIXED) {
      add(args, LoadGenFlags.READ_RATIO, Double.toString(readRatio));
    }
    if (ack != null) {
      add(args, LoadGenFlags.ACK, Integer.toString(ack));
    }
    if (from != null) {
      add(args, LoadGenFlags.FROM, Integer.toString(from));
    }
    add(args, LoadGenFlags.CONTROL_PORT, Integer.toString(GeneratorPods.CONTROL_PORT));
    add(args, LoadGenFlags.CONTROL_TOKEN_FILE, CONTROL_TOKEN_DIR + "/" + ControlToken.KEY);
    if (parallel()) {
      add(args, LoadGenFlags.GENERATORS, Integer.toString(parallelism));
      args.add(LoadGenFlags.AWAIT_START);
      add(args, LoadGenFlags.START_TIMEOUT, GoDuration.toLoadgenArg(START_TIMEOUT));
      add(args, LoadGenFlags.LINGER, GoDuration.toLoadgenArg(LINGER));
    }
    add(args, LoadGenFlags.TERMINATION_LOG, TERMINATION_LOG);
    return List.copyOf(args);
  }

  /** The Job's hard time limit: the run plus a generous margin, so a hung run cannot stay. */
  public long activeDeadlineSeconds() {
    Duration run = SELF_WARM_UP.plus(warmup).plus(duration);
    if (parallel()) {
      run = run.plus(START_TIMEOUT).plus(LINGER);
    }
    Duration quarter = run.dividedBy(4);
    Duration margin = quarter.compareTo(MIN_DEADLINE_MARGIN) > 0 ? quarter : MIN_DEADLINE_MARGIN;
    return (long) Math.ceil(run.plus(margin).toMillis() / 1000.0);
  }

  private static void add(List<String> args, String flag, String value) {
    args.add(flag);
    args.add(value);
  }
}
