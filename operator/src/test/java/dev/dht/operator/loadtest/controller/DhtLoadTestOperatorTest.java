package dev.dht.operator.loadtest.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.dht.node.it.Ports;
import dev.dht.operator.TestCrds;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.DhtClusterSpec;
import dev.dht.operator.cluster.ImagePull;
import dev.dht.operator.cluster.Scheduling;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.loadtest.Comparison;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.LoadTests;
import dev.dht.operator.loadtest.job.ControlToken;
import dev.dht.operator.loadtest.job.GeneratorPods;
import dev.dht.operator.loadtest.job.GeneratorResult;
import dev.dht.operator.loadtest.report.Artifacts;
import dev.dht.operator.loadtest.site.ReportSite;
import dev.dht.operator.loadtest.site.SiteReaders;
import dev.dht.operator.policy.ChartPolicy;
import dev.dht.operator.rbac.ChartRbacOperator;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The load test reconciler against a real kube-apiserver, etcd and kube-controller-manager
 * (k8s-local {@code ensure.sh api}). No kubelet: the Job controller creates the load generator pod,
 * nothing runs it, and the test writes what a kubelet would (the container's terminated state with
 * the summary as termination message); the Job controller then completes or fails the Job as it
 * would for a real pod. Clusters are DhtCluster objects whose status the test writes (no cluster
 * operator here). One namespace and one operator for the class.
 */
class DhtLoadTestOperatorTest {
  static final String IMAGE = "local/dht-node:it";

  /** The operator's node image pull (DHT_NODE_IMAGE_PULL_*), for tests that do not say. */
  static final ImagePull OPERATOR_PULL =
      new ImagePull("IfNotPresent", List.of("operator-registry"));

  static final Duration TIMEOUT = Duration.ofSeconds(30);

  static {
    TestCrds.forceApply(
        DhtLoadTest.class, DhtCluster.class); // before the extension applies them (see TestCrds)
  }

  /** The real nodes the parallel and the stopped-early tests load through a targetUrl. */
  static final int PARALLEL_NODE_PORT = Ports.free();

  static final int ABORT_NODE_PORT = Ports.free();

  /**
   * The chart's policy: the targetUrls of these tests (and no other), cluster images of one
   * registry's path (and the operator's own).
   */
  static final ChartPolicy POLICY =
      ChartPolicy.of(
          List.of(
              "http://10.0.0.1:8080",
              "http://10.0.0.2:8080",
              "http://10.0.0.3:8080",
              "http://10.0.0.4:8080",
              "http://127.0.0.1:" + PARALLEL_NODE_PORT,
              "http://127.0.0.1:" + ABORT_NODE_PORT),
          List.of("registry.example.com/dht/"),
          List.of());

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtLoadTestReconciler(
                  IMAGE, OPERATOR_PULL, POLICY, DhtLoadTestOperatorTest::local))
          .withAdditionalCustomResourceDefinition(DhtCluster.class)
          .build();

  static KubernetesClient client;
  static String ns;

  /** The real node that stands for pod zeta-0 of DhtCluster zeta (profile test). */
  static final int NODE_PORT = Ports.free();

  /** The client and admin ports of the real TLS node that stands for pod kappa-0 (TLS profile). */
  static final int TLS_CLIENT_PORT = Ports.free();

  static final int TLS_ADMIN_PORT = Ports.free();

  /** The control ports of the two generators of the parallel test (pod IPs 10.9.9.1, .2). */
  static final int[] GENERATOR_PORTS = {Ports.free(), Ports.free()};

  /** Node URLs of the test's clusters → the local node; generator pods → local generators. */
  static String local(String url) {
    for (int i = 0; i < GENERATOR_PORTS.length; i++) {
      url =
          url.replace(
              "http://10.9.9." + (i + 1) + ":9090", "http://127.0.0.1:" + GENERATOR_PORTS[i]);
    }
    return url.replaceFirst("^http://zeta-0\\.[^/]*:8080", "http://127.0.0.1:" + NODE_PORT)
        .replaceFirst("^https://kappa-0\\.[^/]*:9090", "https://127.0.0.1:" + TLS_ADMIN_PORT);
  }

  @BeforeAll
  static void connect() {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
  }

  @Test
  void aRunOnAReadyClusterPublishesResultsVerdictAndReport() {
    createCluster(
        "alpha",
        true,
        spec -> {
          spec.setImagePullPolicy(DhtClusterSpec.PullPolicy.Always);
          spec.setImagePullSecrets(
              List.of(new io.fabric8.kubernetes.api.model.LocalObjectReference("alpha-registry")));
        });
    var test =
        create(
            "put-alpha",
            spec -> {
              spec.setClusterRef(new DhtLoadTestSpec.ClusterRef("alpha"));
              spec.setAck(2);
              spec.setFrom(3);
              var thresholds = new DhtLoadTestSpec.Thresholds();
              thresholds.setP99Ms(5000.0);
              thresholds.setMaxErrorRatio(0.01);
              spec.setThresholds(thresholds);
            });

    var job = await(Job.class, "put-alpha-loadgen");
    assertOwnedBy(job, test);
    var container = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(container.getImage()).isEqualTo(IMAGE);
    assertThat(container.getArgs())
        .startsWith("loadgen", "--url", "http://alpha.%s.svc:8080".formatted(ns))
        .containsSequence("--ack", "2", "--from", "3")
        .endsWith("--termination-log", "/dev/termination-log");
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    // the generators pull like the cluster's nodes
    assertThat(container.getImagePullPolicy()).isEqualTo("Always");
    assertThat(job.getSpec().getTemplate().getSpec().getImagePullSecrets())
        .extracting(io.fabric8.kubernetes.api.model.LocalObjectReference::getName)
        .containsExactly("alpha-registry");
    // the control port's token: a Secret of the test's, made before the Job, mounted read-only
    var control = get(io.fabric8.kubernetes.api.model.Secret.class, "put-alpha-control");
    assertOwnedBy(control, test);
    assertThat(control.getMetadata().getOwnerReferences().getFirst().getController()).isTrue();
    assertThat(control.getMetadata().getLabels())
        .containsEntry("app.kubernetes.io/managed-by", "dht-operator")
        .containsEntry("app.kubernetes.io/instance", "put-alpha");
    assertThat(dev.dht.operator.kube.SecretTexts.text(control, ControlToken.KEY))
        .matches("[A-Za-z0-9_-]{43}");
    var volume =
        job.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v ->
                v.getSecret() != null && "put-alpha-control".equals(v.getSecret().getSecretName()))
            .findFirst()
            .orElseThrow();
    assertThat(container.getVolumeMounts())
        .anyMatch(m ->
            m.getName().equals(volume.getName())
                && m.getMountPath().equals("/etc/dht-control")
                && Boolean.TRUE.equals(m.getReadOnly()));
    assertThat(container.getArgs())
        .containsSequence("--control-token-file", "/etc/dht-control/token");
    var running = awaitStatus("put-alpha", s -> "Running".equals(s.getPhase()));
    assertThat(running.getJobName()).isEqualTo("put-alpha-loadgen");
    assertThat(running.getTarget()).isEqualTo("http://alpha.%s.svc:8080".formatted(ns));
    awaitEvent("put-alpha", "Started", "Normal");

    terminate(awaitPod(job), 0, "Completed", LoadTests.terminationMessage());

    var done = awaitStatus("put-alpha", DhtLoadTestStatus::isFinished);
    assertThat(done.getPhase()).isEqualTo("Succeeded");
    assertThat(done.getResults().getRequests()).isEqualTo(259);
    assertThat(done.getResults().getAchievedRate()).isEqualTo(64.75);
    assertThat(done.getResults().getLatencyMs().getP99()).isEqualTo(4218.879);
    assertThat(done.getVerdict()).isEqualTo("Passed");
    assertThat(done.getCompletionTime()).isNotBlank();
    assertThat(done.getReport()).isEqualTo("put-alpha-report");
    assertThat(condition(done, "Succeeded").getStatus()).isEqualTo("True");
    assertThat(condition(done, "Passed").getMessage())
        .contains("p99 4218.88 ms <= 5000 ms")
        .contains("error ratio 0 ");
    // no kubelet, so no pod log: the report has the summary, the HTML, no spectrum
    assertThat(condition(done, "Succeeded").getMessage())
        .contains("the pod log held no wrk2 report");
    var report = get(ConfigMap.class, "put-alpha-report");
    assertOwnedBy(report, test);
    assertThat(report.getData().get("summary.json").strip())
        .isEqualTo(LoadTests.terminationMessage());
    assertThat(report.getData().get("report.html")).contains("put-alpha");
    awaitEvent("put-alpha", "Succeeded", "Normal");
    awaitEvent("put-alpha", "ThresholdsMet", "Normal");
  }

  @Test
  void aFailingJobFailsTheTestWithItsReason() {
    createCluster("beta", true);
    create("put-beta", spec -> spec.setClusterRef(new DhtLoadTestSpec.ClusterRef("beta")));
    var job = await(Job.class, "put-beta-loadgen");
    var pod = awaitPod(job);

    // what a scheduler reports for a pod without room: the progress says so while it waits
    awaitUntil(() -> {
      var current = get(Pod.class, pod.getMetadata().getName());
      current.setStatus(
          new PodStatusBuilder(current.getStatus())
              .withPhase("Pending")
              .withConditions(
                  new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                      .withType("PodScheduled")
                      .withStatus("False")
                      .withReason("Unschedulable")
                      .withMessage("0/3 nodes are available: 3 Insufficient cpu.")
                      .build())
              .build());
      client.resource(current).updateStatus();
      return true;
    });
    awaitStatus(
        "put-beta",
        s ->
            s.getProgress() != null
                && s.getProgress()
                    .getSummary()
                    .startsWith("waiting: " + pod.getMetadata().getName() + " not scheduled: "));

    terminate(pod, 2, "Error", null);

    var failed = awaitStatus("put-beta", DhtLoadTestStatus::isFinished);
    assertThat(failed.getPhase()).isEqualTo("Failed");
    assertThat(failed.getVerdict()).isEqualTo("Failed");
    assertThat(failed.getResults()).isNull();
    var succeeded = condition(failed, "Succeeded");
    assertThat(succeeded.getStatus()).isEqualTo("False");
    assertThat(succeeded.getReason()).isEqualTo("BackoffLimitExceeded");
    assertThat(succeeded.getMessage()).contains("exited with 2 (Error)");
    assertThat(condition(failed, "Passed").getReason()).isEqualTo("RunFailed");
    awaitEvent("put-beta", "Failed", "Warning");
  }

  @Test
  void aTestWaitsForItsClusterToExistAndBeReady() {
    create("put-gamma", spec -> spec.setClusterRef(new DhtLoadTestSpec.ClusterRef("gamma")));
    var missing = awaitStatus("put-gamma", s -> reason(s, "TargetReady").equals("ClusterNotFound"));
    assertThat(missing.getPhase()).isEqualTo("Pending");
    assertThat(condition(missing, "TargetReady").getMessage()).contains("gamma");
    awaitEvent("put-gamma", "ClusterNotFound", "Warning");

    createCluster("gamma", false);
    var notReady =
        awaitStatus("put-gamma", s -> reason(s, "TargetReady").equals("ClusterNotReady"));
    assertThat(notReady.getPhase()).isEqualTo("Pending");
    assertThat(condition(notReady, "TargetReady").getMessage()).contains("1/3 replicas ready");
    assertThat(get(Job.class, "put-gamma-loadgen")).as("no Job while pending").isNull();

    setClusterReady("gamma");
    await(Job.class, "put-gamma-loadgen");
    var running = awaitStatus("put-gamma", s -> "Running".equals(s.getPhase()));
    assertThat(condition(running, "TargetReady").getStatus()).isEqualTo("True");
  }

  @Test
  void aRunIsComparedWithItsBaselineAndJudgedOnRegressions() {
    create("put-eta-v1", spec -> spec.setTargetUrl("http://10.0.0.2:8080"));
    terminate(
        awaitPod(await(Job.class, "put-eta-v1-loadgen")),
        0,
        "Completed",
        LoadTests.terminationMessage());
    awaitStatus("put-eta-v1", DhtLoadTestStatus::isFinished);

    create(
        "put-eta-v2",
        spec -> {
          spec.setTargetUrl("http://10.0.0.2:8080");
          spec.setBaseline(new DhtLoadTestSpec.BaselineRef("put-eta-v1"));
          var regression = new DhtLoadTestSpec.Regression();
          regression.setP99Percent(20.0);
          regression.setAchievedRatePercent(5.0);
          var thresholds = new DhtLoadTestSpec.Thresholds();
          thresholds.setRegression(regression);
          spec.setThresholds(thresholds);
        });
    terminate(
        awaitPod(await(Job.class, "put-eta-v2-loadgen")),
        0,
        "Completed",
        LoadTests.terminationMessage());
    var done = awaitStatus("put-eta-v2", DhtLoadTestStatus::isFinished);
    assertThat(done.getVerdict()).isEqualTo("Passed");
    assertThat(done.getComparison().getBaseline()).isEqualTo("put-eta-v1");
    assertThat(done.getComparison().getRows())
        .extracting(Comparison.Row::getSummary)
        .containsOnly("same");
    assertThat(condition(done, "Passed").getMessage())
        .contains("p99 4218.88 ms vs baseline 4218.88 ms (+0%) <= +20% allowed");
    assertThat(get(ConfigMap.class, "put-eta-v2-report").getData().get("report.html"))
        .contains("<h2>Against put-eta-v1</h2>");
  }

  /**
   * A profiled run on a plain cluster: its one real generator (in this JVM) runs against a real
   * node; when the generator reports its measured window open, the operator asks the node to
   * profile the rest of it, and collects the flame graph when the run ends.
   */
  @Test
  void aProfiledRunStoresAFlameGraphPerNodeAndEvent() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("dht-profiled");
    try (var node = startNode(NODE_PORT, dir, "zeta-secret")) {
      createCluster("zeta", true);
      // the cluster's Secret, which the operator reads for its admin requests to the nodes
      createSecret("zeta-secret", "secret", "zeta-secret");
      setMembers("zeta");
      create("put-zeta", spec -> profiled(spec, "zeta"));
      var html = runProfiled("put-zeta", "zeta-0", "http://127.0.0.1:" + NODE_PORT, null, dir);
      var http = java.net.http.HttpClient.newHttpClient();

      // the report site serves the index, the page and the flame graph to a reader of the
      // namespace's load tests; other namespaces: 404
      String token = SiteReaders.token(client, ns, "report-reader");
      SiteReaders.mayGet(client, ns, "report-reader");
      var site =
          com.sun.net.httpserver.HttpServer.create(
              new java.net.InetSocketAddress("127.0.0.1", 0), 4);
      site.createContext("/reports/", new ReportSite(client, java.util.Set.of(ns)));
      site.start();
      try {
        String base = "http://127.0.0.1:" + site.getAddress().getPort() + "/reports/";
        var index = fetch(http, token, base);
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.body()).contains("put-zeta", "Passed");
        var page = fetch(http, token, base + ns + "/put-zeta/");
        assertThat(page.body()).contains("<a href=\"flame-zeta-0-cpu.html\">");
        var flame = fetch(http, token, base + ns + "/put-zeta/flame-zeta-0-cpu.html");
        assertThat(flame.statusCode()).isEqualTo(200);
        assertThat(flame.headers().firstValue("content-type")).contains("text/html");
        assertThat(flame.headers().firstValue("content-security-policy"))
            .get()
            .asString()
            .contains("sandbox allow-scripts");
        assertThat(flame.body()).isEqualTo(html);
        assertThat(page.headers().firstValue("content-security-policy"))
            .get()
            .asString()
            .contains("default-src 'none'");
        assertThat(page.body())
            .contains("<iframe sandbox=\"allow-scripts\" src=\"flame-zeta-0-cpu.html\"");
        assertThat(fetch(http, token, base + "kube-system/").statusCode()).isEqualTo(404);
        assertThat(fetch(http, token, base + ns + "/no-such-test/").statusCode()).isEqualTo(404);
      } finally {
        site.stop(0);
      }
    }
  }

  /**
   * The same on a TLS cluster: the node serves clients and its admin port over TLS with a
   * certificate of the cluster's CA; the operator reaches the admin port trusting {@code
   * <cluster>-ca-cert} with the cluster secret, both to start the profile and to collect the flame
   * graph. Plain HTTP to that port is refused, so nothing else could have.
   */
  @Test
  void aProfiledRunOnATlsClusterReachesTheNodesAdminPortOverTls() throws Exception {
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("dht-profiled-tls");
    var valid =
        dev.dht.pki.Validity.of(Instant.now().minus(Duration.ofHours(1)), Duration.ofDays(1));
    var ca = dev.dht.pki.CertificateAuthority.generate("kappa test CA", valid);
    var leaf =
        ca.issue(
            new dev.dht.pki.LeafRequest(
                "dht node", List.of("localhost"), List.of("127.0.0.1"), valid));
    String caPem = dev.dht.pki.Pem.certificate(ca.certificate());
    var caFile = java.nio.file.Files.writeString(dir.resolve("ca.crt"), caPem);
    java.nio.file.Files.writeString(
        dir.resolve("tls.key"), dev.dht.pki.Pem.privateKey(leaf.privateKey()));
    java.nio.file.Files.writeString(
        dir.resolve("tls.crt"), dev.dht.pki.Pem.certificate(leaf.certificate()));
    java.nio.file.Files.writeString(dir.resolve("secret"), "kappa-secret");
    try (var node =
        dev.dht.node.Node.start(
            dev.dht.node.NodeOptions.parse(
                "--self=http://127.0.0.1:" + TLS_CLIENT_PORT,
                "--port=" + TLS_CLIENT_PORT,
                "--peer-port=" + Ports.free(),
                "--admin-port=" + TLS_ADMIN_PORT,
                "--tls-cert-file=" + dir.resolve("tls.crt"),
                "--tls-key-file=" + dir.resolve("tls.key"),
                "--tls-ca-file=" + caFile,
                "--cluster-secret-file=" + dir.resolve("secret"),
                "--data-dir=" + dir.resolve("data"),
                "--event-loops=1",
                "--storage-threads=1",
                "--repair-interval-s=0"))) {
      var plain =
          java.net.http.HttpClient.newHttpClient()
              .sendAsync(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create(
                              "http://127.0.0.1:" + TLS_ADMIN_PORT + "/v0/admin/profile"))
                      .timeout(Duration.ofSeconds(5))
                      .header("X-Dht-Cluster-Secret", "kappa-secret")
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.discarding());
      assertThat(plain)
          .as("plain HTTP to the TLS admin port")
          .failsWithin(Duration.ofSeconds(10))
          .withThrowableOfType(java.util.concurrent.ExecutionException.class);

      createCluster("kappa", true);
      createSecret("kappa-secret", "secret", "kappa-secret");
      createSecret("kappa-ca-cert", "ca.crt", caPem);
      awaitUntil(() -> {
        var cluster = get(DhtCluster.class, "kappa");
        cluster.getStatus().setTransport(dev.dht.operator.cluster.Transport.Tls);
        cluster.getStatus().setMembers(List.of("http://kappa-0.kappa-peers." + ns + ".svc:8080"));
        client.resource(cluster).updateStatus();
        return true;
      });
      create("put-kappa", spec -> profiled(spec, "kappa"));
      String html =
          runProfiled("put-kappa", "kappa-0", "https://127.0.0.1:" + TLS_CLIENT_PORT, caFile, dir);
      assertThat(html).startsWith("<!DOCTYPE html>");
    }
  }

  /** A short profiled run of cpu on {@code cluster}'s nodes. */
  private static void profiled(DhtLoadTestSpec spec, String cluster) {
    spec.setClusterRef(new DhtLoadTestSpec.ClusterRef(cluster));
    spec.setRate(100);
    spec.setConnections(2);
    spec.setThreads(1);
    spec.setDuration("3s");
    spec.setWarmup("1s");
    spec.setAck(1);
    spec.setFrom(1);
    var profile = new DhtLoadTestSpec.Profile();
    profile.setEvents(List.of(DhtLoadTestSpec.ProfileEvent.CPU));
    spec.setProfile(profile);
  }

  /**
   * Runs profiled test {@code name}'s one generator as a kubelet would, against pod {@code node} at
   * {@code url} ({@code caFile}: the CA it trusts, on a TLS cluster): the Job carries no profile
   * flags and no cluster secret; the operator starts the profile once the measured window opens
   * (status .profile) and stores the flame graph, which is returned.
   */
  private static String runProfiled(
      String name, String node, String url, java.nio.file.Path caFile, java.nio.file.Path dir)
      throws Exception {
    var job = await(Job.class, name + "-loadgen");
    var podSpec = job.getSpec().getTemplate().getSpec();
    var args = new java.util.ArrayList<>(podSpec.getContainers().getFirst().getArgs());
    assertThat(args).noneMatch(a -> a.startsWith("--profile"));
    assertThat(podSpec.getVolumes())
        .as("the generators need no cluster secret: the operator asks for the profiles")
        .noneMatch(v -> v.getSecret() != null && v.getSecret().getSecretName().endsWith("-secret"));
    args.set(args.indexOf("--url") + 1, url);
    if (caFile != null) {
      args.set(args.indexOf("--ca-file") + 1, caFile.toString());
    }
    var pod = awaitPod(job);
    setRunning(pod, "10.9.9.1");
    var message = dir.resolve("termination");
    var thread = java.util.concurrent.Executors.newSingleThreadExecutor();
    var run = runGenerator(name, args, 0, message, List.of(), thread);

    var asked = awaitStatus(name, s -> s.getProfile() != null).getProfile();
    assertThat(asked.getNodes()).containsExactly(node);
    assertThat(asked.getNotStarted()).isEmpty();
    assertThat(asked.getSeconds()).as("what was left of the 3 s window").isBetween(1L, 3L);
    assertThat(run.get(60, java.util.concurrent.TimeUnit.SECONDS)).isZero();
    thread.shutdown();
    terminate(pod, 0, "Completed", java.nio.file.Files.readString(message));

    var done = awaitStatus(name, DhtLoadTestStatus::isFinished);
    assertThat(done.getPhase())
        .as(condition(done, "Succeeded").getMessage())
        .isEqualTo("Succeeded");
    assertThat(done.getProfile()).isEqualTo(asked);
    String artifact = "flame-" + node + "-cpu.html";
    assertThat(done.getArtifacts()).containsExactly(artifact);
    var parts =
        client
            .configMaps()
            .inNamespace(ns)
            .withLabel("dht.dev/artifact", artifact.replace('.', '-'))
            .list()
            .getItems()
            .stream()
            .filter(m -> m.getMetadata().getName().startsWith(name + "-"))
            .toList();
    assertThat(parts).isNotEmpty();
    String html = new String(Artifacts.read(parts), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(html).startsWith("<!DOCTYPE html>").contains("cpu, " + asked.getSeconds() + " s");
    return html;
  }

  private static void createSecret(String name, String key, String value) {
    client
        .resource(
            new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ns)
                .endMetadata()
                .addToStringData(key, value)
                .build())
        .create();
  }

  /** What the cluster operator would write: the cluster's one member, pod {@code <name>-0}. */
  private static void setMembers(String name) {
    awaitUntil(() -> {
      var cluster = get(DhtCluster.class, name);
      cluster
          .getStatus()
          .setMembers(List.of("http://" + name + "-0." + name + "-peers." + ns + ".svc:8080"));
      client.resource(cluster).updateStatus();
      return true;
    });
  }

  /**
   * Two real load generators (in this JVM, on the control ports the pods' IPs map to) run the
   * operator's own arguments against a real node: the operator starts them together, collects their
   * histograms, and publishes percentiles that are exactly those of the union.
   */
  @Test
  void aParallelTestStartsItsGeneratorsTogetherAndMergesTheirHistograms() throws Exception {
    int nodePort = PARALLEL_NODE_PORT;
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("dht-parallel");
    try (var node = startNode(nodePort, dir, "eta-secret")) {
      create(
          "par-eta",
          spec -> {
            spec.setTargetUrl("http://127.0.0.1:" + nodePort);
            spec.setParallelism(2);
            spec.setRate(300);
            spec.setConnections(5);
            spec.setThreads(1);
            spec.setDuration("3s");
            spec.setWarmup("500ms");
            spec.setAck(1);
            spec.setFrom(1);
          });
      var job = await(Job.class, "par-eta-loadgen");
      assertThat(job.getSpec().getCompletionMode()).isEqualTo("Indexed");
      var args = job.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs();
      awaitUntil(() -> podsOf(job).size() == 2);

      // what the kubelet does: run each pod (an IP), whose container runs the generator
      // own threads: the common pool may have one thread, and the generators block in it
      var threads = java.util.concurrent.Executors.newFixedThreadPool(2);
      var runs = new java.util.ArrayList<java.util.concurrent.CompletableFuture<Integer>>();
      var messages = new java.util.ArrayList<java.nio.file.Path>();
      for (var pod : podsOf(job)) {
        int index = Integer.parseInt(pod.getMetadata().getLabels().get(GeneratorPods.INDEX_LABEL));
        setRunning(pod, "10.9.9." + (index + 1));
        var message = dir.resolve("termination-" + index);
        messages.add(message);
        runs.add(
            runGenerator(
                "par-eta",
                args,
                index,
                message,
                List.of("--generator-index", Integer.toString(index)),
                threads));
      }
      var started = awaitStatus("par-eta", s -> s.getStartAt() != null);
      assertThat(started.getPhase()).isEqualTo("Running");
      // each generator exits once the operator has its result
      for (var run : runs) {
        assertThat(run.get(60, java.util.concurrent.TimeUnit.SECONDS)).isZero();
      }
      threads.shutdown();
      var stored = get(ConfigMap.class, "par-eta-generators");
      assertThat(stored.getData()).containsOnlyKeys("generator-0.json", "generator-1.json");
      for (var pod : podsOf(job)) {
        int index = Integer.parseInt(pod.getMetadata().getLabels().get(GeneratorPods.INDEX_LABEL));
        terminate(pod, 0, "Completed", java.nio.file.Files.readString(messages.get(index)));
      }

      var done = awaitStatus("par-eta", DhtLoadTestStatus::isFinished);
      assertThat(done.getPhase())
          .as(condition(done, "Succeeded").getMessage())
          .isEqualTo("Succeeded");
      var union = new org.HdrHistogram.Histogram(3);
      long requests = 0;
      double achieved = 0;
      long startAt = Instant.parse(done.getStartAt()).toEpochMilli();
      for (var json : stored.getData().values()) {
        var one = GeneratorResult.parse(json);
        union.add(one.histogram());
        requests += one.requests();
        achieved += one.achievedRate();
        assertThat(one.targetRate()).isEqualTo(150.0);
        // every measured window opened at the start time given plus the warm-up
        assertThat(one.windowStartMs()).isBetween(startAt + 500 - 50, startAt + 500 + 50);
      }
      var results = done.getResults();
      assertThat(results.getRequests()).isEqualTo(requests).isEqualTo(union.getTotalCount());
      assertThat(results.getAchievedRate())
          .isCloseTo(achieved, org.assertj.core.data.Offset.offset(0.01));
      assertThat(results.getLatencyMs().getP50())
          .isEqualTo(union.getValueAtPercentile(50) / 1000.0);
      assertThat(results.getLatencyMs().getP99())
          .isEqualTo(union.getValueAtPercentile(99) / 1000.0);
      assertThat(results.getLatencyMs().getP999())
          .isEqualTo(union.getValueAtPercentile(99.9) / 1000.0);
      assertThat(results.getLatencyMs().getMax()).isEqualTo(union.getMaxValue() / 1000.0);
      assertThat(results.getWindowOverlap()).isGreaterThan(0.9);
      assertThat(done.getGenerators())
          .extracting(DhtLoadTestStatus.Generator::getIndex)
          .containsExactly(0, 1);
      var report = get(ConfigMap.class, "par-eta-report");
      assertThat(report.getData().get("spectrum.txt")).contains("Merged latency of 2 generators");
      assertThat(report.getData().get("report.html"))
          .contains("id=\"generators\"")
          .contains(done.getGenerators().get(0).getPod(), done.getGenerators().get(1).getPod());
      assertThat(report.getData().get("summary.json")).contains("\"perGenerator\"");
    }
  }

  /**
   * A run with abortOnFail whose p99 limit no run can meet: the operator watches its one real
   * generator's progress and stops it long before its 60 s are over; the test fails as Aborted with
   * the results it had.
   */
  @Test
  void aRunWhoseVerdictIsDecidedIsStoppedEarly() throws Exception {
    int nodePort = ABORT_NODE_PORT;
    java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("dht-abort");
    try (var node = startNode(nodePort, dir, "theta-secret")) {
      create(
          "abort-theta",
          spec -> {
            spec.setTargetUrl("http://127.0.0.1:" + nodePort);
            spec.setRate(200);
            spec.setConnections(2);
            spec.setThreads(1);
            spec.setDuration("60s");
            spec.setWarmup("1s");
            spec.setAck(1);
            spec.setFrom(1);
            var thresholds = new DhtLoadTestSpec.Thresholds();
            thresholds.setP99Ms(0.001);
            thresholds.setAbortOnFail(true);
            spec.setThresholds(thresholds);
          });
      var job = await(Job.class, "abort-theta-loadgen");
      var pod = awaitPod(job);
      setRunning(pod, "10.9.9.1");
      var message = dir.resolve("termination");
      var args = job.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs();
      var thread = java.util.concurrent.Executors.newSingleThreadExecutor();
      long started = System.nanoTime();
      var run = runGenerator("abort-theta", args, 0, message, List.of(), thread);

      var stopping = awaitStatus("abort-theta", s -> s.getAborted() != null);
      assertThat(stopping.getAborted()).startsWith("p99 can no longer be 0.001 ms or less");
      assertThat(stopping.getProgress().getSummary()).startsWith("measuring ");
      assertThat(run.get(60, java.util.concurrent.TimeUnit.SECONDS)).isZero();
      thread.shutdown();
      assertThat(System.nanoTime() - started)
          .as("the generator stopped long before its 61 s")
          .isLessThan(java.util.concurrent.TimeUnit.SECONDS.toNanos(40));
      terminate(pod, 0, "Completed", java.nio.file.Files.readString(message));

      var done = awaitStatus("abort-theta", DhtLoadTestStatus::isFinished);
      assertThat(done.getPhase()).isEqualTo("Failed");
      assertThat(done.getProgress()).isNull();
      assertThat(condition(done, "Succeeded").getReason()).isEqualTo("Aborted");
      assertThat(condition(done, "Succeeded").getMessage())
          .startsWith("aborted: p99 can no longer be 0.001 ms or less");
      assertThat(done.getResults().getRequests()).isPositive();
      assertThat(done.getVerdict()).isEqualTo("Failed");
      assertThat(done.getReport()).isEqualTo("abort-theta-report");
      assertThat(get(ConfigMap.class, "abort-theta-report").getData().get("report.html"))
          .contains("aborted: p99 can no longer be");
    }
  }

  /**
   * What the kubelet would run in generator pod {@code index} of {@code test}: the Job's container
   * arguments (the leading subcommand dropped), with the control port this test maps that pod's IP
   * to, the test's control token in a file (as its Secret volume holds it), the termination message
   * in {@code message}, and {@code extra}; on {@code threads}, since a generator blocks its thread
   * for the whole run. Completes with the exit code.
   */
  private static java.util.concurrent.CompletableFuture<Integer> runGenerator(
      String test,
      List<String> jobArgs,
      int index,
      java.nio.file.Path message,
      List<String> extra,
      java.util.concurrent.Executor threads)
      throws java.io.IOException {
    var own = new java.util.ArrayList<>(jobArgs.subList(1, jobArgs.size()));
    own.set(own.indexOf("--control-port") + 1, Integer.toString(GENERATOR_PORTS[index]));
    own.set(own.indexOf("--termination-log") + 1, message.toString());
    // the Secret volume's file: the generator refuses control requests without this token
    var token = message.resolveSibling("control-token-" + index);
    java.nio.file.Files.writeString(token, controlToken(test));
    own.set(own.indexOf("--control-token-file") + 1, token.toString());
    own.addAll(extra);
    own.add("--quiet");
    return java.util.concurrent.CompletableFuture.supplyAsync(
        () ->
            new picocli.CommandLine(new dev.dht.loadgen.cli.LoadGenCommand())
                .execute(own.toArray(String[]::new)),
        threads);
  }

  /** A real node on {@code port}, its data and cluster {@code secret} under {@code dir}. */
  private static dev.dht.node.Node startNode(int port, java.nio.file.Path dir, String secret)
      throws Exception {
    java.nio.file.Files.writeString(dir.resolve("secret"), secret);
    return dev.dht.node.Node.start(
        dev.dht.node.NodeOptions.parse(
            "--self",
            "http://127.0.0.1:" + port,
            "--port",
            Integer.toString(port),
            "--data-dir",
            dir.resolve("data").toString(),
            "--cluster-secret-file",
            dir.resolve("secret").toString(),
            "--event-loops",
            "1",
            "--storage-threads",
            "1",
            "--repair-interval-s",
            "0"));
  }

  /** What a kubelet reports for a started pod: Running, with an IP. */
  private static void setRunning(Pod pod, String ip) {
    awaitUntil(() -> {
      var current = get(Pod.class, pod.getMetadata().getName());
      current.setStatus(
          new PodStatusBuilder(current.getStatus())
              .withPhase("Running")
              .withPodIP(ip)
              .withPodIPs(new io.fabric8.kubernetes.api.model.PodIP(ip))
              .build());
      client.resource(current).updateStatus();
      return true;
    });
  }

  /**
   * A tenant's pod with the Job's labels (made and controlled by something of the tenant's, so the
   * Job controller does not adopt it) is no generator: the operator never asks it for progress,
   * though it asks the Job's own pod, and its failure does not fail the test.
   */
  @Test
  void aPodWithTheJobsLabelsThatTheJobDoesNotControlIsIgnored() throws Exception {
    create("imp-iota", spec -> spec.setTargetUrl("http://10.0.0.3:8080"));
    var job = await(Job.class, "imp-iota-loadgen");
    var real = awaitPod(job);
    var askedImpostor = new java.util.concurrent.atomic.AtomicInteger();
    var askedReal = new java.util.concurrent.atomic.AtomicInteger();
    String token = controlToken("imp-iota");
    var impostorServer = fakeGenerator(GENERATOR_PORTS[0], askedImpostor, token);
    var realServer = fakeGenerator(GENERATOR_PORTS[1], askedReal, token);
    try {
      var owner =
          client
              .resource(
                  new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                      .withNewMetadata()
                      .withName("tenant-owner")
                      .withNamespace(ns)
                      .endMetadata()
                      .build())
              .create();
      var impostor =
          client
              .resource(
                  new io.fabric8.kubernetes.api.model.PodBuilder()
                      .withNewMetadata()
                      .withName("imp-iota-loadgen-impostor")
                      .withNamespace(ns)
                      .withLabels(real.getMetadata().getLabels())
                      .withOwnerReferences(
                          new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder()
                              .withApiVersion("v1")
                              .withKind("ConfigMap")
                              .withName("tenant-owner")
                              .withUid(owner.getMetadata().getUid())
                              .withController(true)
                              .build())
                      .endMetadata()
                      .withNewSpec()
                      .withNodeSelector(Map.of("dht.dev/test-no-such-node", "true"))
                      .addNewContainer()
                      .withName("loadgen")
                      .withImage(IMAGE)
                      .endContainer()
                      .endSpec()
                      .build())
              .create();
      setRunning(impostor, "10.9.9.1");
      setRunning(real, "10.9.9.2");

      awaitUntil(() -> askedReal.get() >= 2);
      assertThat(askedImpostor.get()).as("progress asked of the impostor").isZero();
      assertThat(
              get(Pod.class, impostor.getMetadata().getName()).getMetadata().getOwnerReferences())
          .as("not adopted by the Job controller")
          .extracting(OwnerReference::getKind)
          .containsExactly("ConfigMap");

      // were it taken for the Job's pod, its failure (the newest pod, failed) would fail the test
      terminate(impostor, 1, "Error", null);
      terminate(real, 0, "Completed", LoadTests.terminationMessage());
      var done = awaitStatus("imp-iota", DhtLoadTestStatus::isFinished);
      assertThat(done.getPhase()).isEqualTo("Succeeded");
      assertThat(askedImpostor.get()).isZero();
    } finally {
      impostorServer.stop(0);
      realServer.stop(0);
    }
  }

  /**
   * A generator's control port that only says it runs, counting how often it was asked with the
   * test's control {@code token}; without it, 401 (as a real generator answers).
   */
  private static com.sun.net.httpserver.HttpServer fakeGenerator(
      int port, java.util.concurrent.atomic.AtomicInteger asked, String token)
      throws java.io.IOException {
    var server =
        com.sun.net.httpserver.HttpServer.create(
            new java.net.InetSocketAddress("127.0.0.1", port), 4);
    server.createContext(
        "/",
        exchange -> {
          if (!("Bearer " + token).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            exchange.sendResponseHeaders(401, -1);
            exchange.close();
            return;
          }
          if (exchange.getRequestURI().getPath().equals("/progress")) {
            asked.incrementAndGet();
          }
          byte[] body =
              "{\"phase\":\"running\",\"elapsedSeconds\":1.0,\"measuredSeconds\":0}"
                  .getBytes(java.nio.charset.StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    return server;
  }

  /**
   * A Secret named like the test's control Secret, made by someone else before the test: the
   * operator neither adopts, reads nor overwrites it, and the test waits, saying why. Once it is
   * gone, the operator makes the test's own and the Job starts.
   */
  @Test
  void aForeignControlSecretIsNeverAdoptedAndTheTestWaits() {
    var foreign =
        client
            .resource(
                new io.fabric8.kubernetes.api.model.SecretBuilder()
                    .withNewMetadata()
                    .withName("tok-lambda-control")
                    .withNamespace(ns)
                    .withLabels(Map.of("app.kubernetes.io/managed-by", "dht-operator"))
                    .endMetadata()
                    .addToStringData("token", "known-to-its-maker")
                    .build())
            .create();
    create("tok-lambda", spec -> spec.setTargetUrl("http://10.0.0.4:8080"));

    var waiting =
        awaitStatus("tok-lambda", s -> reason(s, "TargetReady").equals(ControlToken.NOT_OWNED));
    assertThat(waiting.getPhase()).isEqualTo("Pending");
    assertThat(condition(waiting, "TargetReady").getMessage())
        .contains("tok-lambda-control", "is not this test's");
    awaitEvent("tok-lambda", ControlToken.NOT_OWNED, "Warning");
    assertThat(get(Job.class, "tok-lambda-loadgen")).as("no Job with a foreign token").isNull();
    var untouched = get(io.fabric8.kubernetes.api.model.Secret.class, "tok-lambda-control");
    assertThat(untouched.getMetadata().getResourceVersion())
        .isEqualTo(foreign.getMetadata().getResourceVersion());
    assertThat(untouched.getMetadata().getOwnerReferences()).isNullOrEmpty();

    client.resource(foreign).delete();
    var job = await(Job.class, "tok-lambda-loadgen");
    var own = get(io.fabric8.kubernetes.api.model.Secret.class, "tok-lambda-control");
    assertOwnedBy(own, get(DhtLoadTest.class, "tok-lambda"));
    assertThat(dev.dht.operator.kube.SecretTexts.text(own, ControlToken.KEY))
        .isNotEqualTo("known-to-its-maker");
    assertThat(job.getSpec().getTemplate().getSpec().getVolumes())
        .anyMatch(v ->
            v.getSecret() != null && "tok-lambda-control".equals(v.getSecret().getSecretName()));
  }

  @Test
  void aTestWhoseTargetNeverComesFailsAfterItsPendingTimeout() {
    create(
        "put-epsilon",
        spec -> {
          spec.setClusterRef(new DhtLoadTestSpec.ClusterRef("never"));
          spec.setPendingTimeout("3s");
        });
    var failed = awaitStatus("put-epsilon", DhtLoadTestStatus::isFinished);
    assertThat(failed.getPhase()).isEqualTo("Failed");
    assertThat(condition(failed, "Succeeded").getReason()).isEqualTo("PendingTooLong");
    assertThat(condition(failed, "Succeeded").getMessage())
        .contains("still pending after 3s", "never");
    assertThat(get(Job.class, "put-epsilon-loadgen")).as("no Job was made").isNull();
  }

  @Test
  void aTargetThePolicyRefusesGetsNoJobAndTheReason() {
    create("put-refused-url", spec -> spec.setTargetUrl("http://10.0.0.9:8080"));
    create("put-userinfo", spec -> spec.setTargetUrl("http://10.0.0.1:8080@10.0.0.9"));
    createCluster("lambda", true, "elsewhere.example/dht-node:1");
    create("put-lambda", spec -> spec.setClusterRef(new DhtLoadTestSpec.ClusterRef("lambda")));
    create("put-allowed", spec -> spec.setTargetUrl("http://10.0.0.4:8080/"));

    var url =
        awaitStatus("put-refused-url", s -> reason(s, "TargetReady").equals("TargetNotAllowed"));
    assertThat(url.getPhase()).isEqualTo("Pending");
    assertThat(condition(url, "TargetReady").getMessage())
        .contains("'http://10.0.0.9:8080'", "policy.loadTestTargets", "http://10.0.0.1:8080");
    var userInfo =
        awaitStatus("put-userinfo", s -> reason(s, "TargetReady").equals("TargetNotAllowed"));
    assertThat(condition(userInfo, "TargetReady").getMessage()).contains("user info");
    var image = awaitStatus("put-lambda", s -> reason(s, "TargetReady").equals("ImageNotAllowed"));
    assertThat(image.getPhase()).isEqualTo("Pending");
    assertThat(condition(image, "TargetReady").getMessage())
        .contains("lambda", "'elsewhere.example/dht-node:1'", "policy.images");

    var allowed = await(Job.class, "put-allowed-loadgen");
    assertThat(allowed.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
        .containsSequence("--url", "http://10.0.0.4:8080");
    for (String refused : List.of("put-refused-url", "put-userinfo", "put-lambda")) {
      assertThat(get(Job.class, refused + "-loadgen")).as("no Job for %s", refused).isNull();
    }
  }

  @Test
  void deletingTheTestGarbageCollectsItsJobPodAndReport() {
    var test = create("put-delta", spec -> spec.setTargetUrl("http://10.0.0.1:8080"));
    var job = await(Job.class, "put-delta-loadgen");
    var container = job.getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(container.getArgs()).containsSequence("--url", "http://10.0.0.1:8080");
    // no cluster to pull like: the operator's pull settings
    assertThat(container.getImagePullPolicy()).isEqualTo("IfNotPresent");
    assertThat(job.getSpec().getTemplate().getSpec().getImagePullSecrets())
        .extracting(io.fabric8.kubernetes.api.model.LocalObjectReference::getName)
        .containsExactly("operator-registry");
    assertThat(get(io.fabric8.kubernetes.api.model.Secret.class, "put-delta-control")).isNotNull();
    var pod = awaitPod(job);
    terminate(pod, 0, "Completed", LoadTests.terminationMessage());
    awaitStatus("put-delta", DhtLoadTestStatus::isFinished);
    await(ConfigMap.class, "put-delta-report");

    client.resource(test).delete();
    // kube-controller-manager's garbage collector follows the owner references
    awaitUntil(() ->
        get(Job.class, "put-delta-loadgen") == null
            && get(ConfigMap.class, "put-delta-report") == null
            && get(io.fabric8.kubernetes.api.model.Secret.class, "put-delta-control") == null
            && get(Pod.class, pod.getMetadata().getName()) == null);
  }

  // --- helpers ---

  private static java.net.http.HttpResponse<String> fetch(
      java.net.http.HttpClient http, String token, String url) throws Exception {
    return http.send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
            .header("Authorization", "Bearer " + token)
            .build(),
        java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  private static DhtLoadTest create(String name, Consumer<DhtLoadTestSpec> change) {
    var test = new DhtLoadTest();
    test.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    var spec = new DhtLoadTestSpec();
    spec.setRate(1000);
    spec.setDuration("20s");
    spec.setWarmup("2s");
    // never scheduled, even when a kubelet runs (ensure.sh full): the pod status stays the test's
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    spec.setScheduling(scheduling);
    change.accept(spec);
    test.setSpec(spec);
    return client.resource(test).create();
  }

  private static void createCluster(String name, boolean ready) {
    createCluster(name, ready, spec -> {});
  }

  private static void createCluster(String name, boolean ready, String image) {
    createCluster(name, ready, spec -> spec.setImage(image));
  }

  private static void createCluster(String name, boolean ready, Consumer<DhtClusterSpec> change) {
    var cluster = new DhtCluster();
    cluster.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    cluster.setSpec(new DhtClusterSpec());
    change.accept(cluster.getSpec());
    client.resource(cluster).create();
    writeClusterStatus(name, ready);
  }

  private static void setClusterReady(String name) {
    writeClusterStatus(name, true);
  }

  /** What the cluster operator would write: a Ready condition. */
  private static void writeClusterStatus(String name, boolean ready) {
    awaitUntil(() -> {
      var cluster = get(DhtCluster.class, name);
      cluster.setStatus(LoadTests.clusterStatus(ready));
      client.resource(cluster).updateStatus();
      return true;
    });
  }

  /** The token in the test's control Secret (what its generator pods mount). */
  private static String controlToken(String test) {
    var secret = await(io.fabric8.kubernetes.api.model.Secret.class, ControlToken.secretName(test));
    return dev.dht.operator.kube.SecretTexts.text(secret, ControlToken.KEY);
  }

  private static Pod awaitPod(Job job) {
    awaitUntil(() -> !podsOf(job).isEmpty());
    return podsOf(job).getFirst();
  }

  private static List<Pod> podsOf(Job job) {
    return client
        .pods()
        .inNamespace(ns)
        .withLabel("batch.kubernetes.io/job-name", job.getMetadata().getName())
        .list()
        .getItems();
  }

  /** What a kubelet reports when the load generator exits. */
  private static void terminate(Pod pod, int exitCode, String reason, String message) {
    String now = Instant.now().toString().substring(0, 19) + "Z";
    awaitUntil(() -> {
      var current = get(Pod.class, pod.getMetadata().getName());
      current.setStatus(
          new PodStatusBuilder(current.getStatus())
              .withPhase(exitCode == 0 ? "Succeeded" : "Failed")
              .withContainerStatuses(
                  new ContainerStatusBuilder()
                      .withName("loadgen")
                      .withImage(IMAGE)
                      .withImageID("")
                      .withReady(false)
                      .withRestartCount(0)
                      .withState(
                          new ContainerStateBuilder()
                              .withNewTerminated()
                              .withExitCode(exitCode)
                              .withReason(reason)
                              .withMessage(message)
                              .withStartedAt(now)
                              .withFinishedAt(now)
                              .endTerminated()
                              .build())
                      .build())
              .build());
      client.resource(current).updateStatus();
      return true;
    });
  }

  private static <T extends HasMetadata> T get(Class<T> type, String name) {
    return client.resources(type).inNamespace(ns).withName(name).get();
  }

  private static <T extends HasMetadata> T await(Class<T> type, String name) {
    awaitUntil(() -> get(type, name) != null);
    return get(type, name);
  }

  private static void awaitUntil(Callable<Boolean> condition) {
    Awaitility.await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(condition);
  }

  private static DhtLoadTestStatus awaitStatus(
      String name, Predicate<DhtLoadTestStatus> condition) {
    awaitUntil(() -> {
      var status = get(DhtLoadTest.class, name).getStatus();
      return status != null && condition.test(status);
    });
    return get(DhtLoadTest.class, name).getStatus();
  }

  private static Condition condition(DhtLoadTestStatus status, String type) {
    return Conditions.find(status.getConditions(), type).orElseThrow();
  }

  private static String reason(DhtLoadTestStatus status, String type) {
    return Conditions.find(status.getConditions(), type).map(c -> c.getReason()).orElse("");
  }

  private static void assertOwnedBy(HasMetadata object, DhtLoadTest owner) {
    assertThat(object.getMetadata().getOwnerReferences())
        .as("owner of %s", object.getMetadata().getName())
        .extracting(OwnerReference::getUid, OwnerReference::getKind)
        .containsExactly(tuple(owner.getMetadata().getUid(), "DhtLoadTest"));
  }

  private static void awaitEvent(String name, String reason, String type) {
    awaitUntil(() ->
        client.v1().events().inNamespace(ns).list().getItems().stream()
            .filter((Event e) -> name.equals(e.getInvolvedObject().getName()))
            .anyMatch(e -> reason.equals(e.getReason()) && type.equals(e.getType())));
  }
}
