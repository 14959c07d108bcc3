package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.Main;
import dev.dht.node.Node;
import dev.dht.operator.Conditions;
import dev.dht.operator.TestCrds;
import dev.dht.operator.scaling.Membership;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.scaling.NodeProgress;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator scales a DhtCluster of real nodes 3 → 5 → 4 → 3 on the real apiserver, with a writer
 * and a reader at 2/3 running. There is no kubelet here: a stand-in does its part for the cluster's
 * pods (the StatefulSet controller creates and deletes them): it runs a real node (in this JVM, on
 * a local port) for each pod, projects the ConfigMap's files into it (pod DNS names rewritten to
 * the local ports), and reports the pod Ready once its node answers. The operator reaches the
 * nodes' admin endpoints through the same mapping.
 */
class ScalingOperatorTest {
  private static final int MAX_NODES = 5;
  private static final int KEYS = 200;
  private static final String NAME = "scale";
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final Pattern ORDINAL =
      Pattern.compile("^http://" + NAME + "-(\\d+)\\.[^/]*:8080");
  private static final int[] PORTS = freePorts(MAX_NODES);

  static {
    TestCrds.forceApply(DhtCluster.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      LocallyRunOperatorExtension.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  "local/dht-node:it", new NodeAdmin(ScalingOperatorTest::local)))
          .oneNamespacePerClass(true)
          .build();

  static KubernetesClient client;
  static String ns;
  static Path root;
  static final Node[] nodes = new Node[MAX_NODES];
  static final AtomicBoolean kubeletRunning = new AtomicBoolean(true);
  static Thread kubelet;
  static final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() throws IOException {
    client = OPERATOR.getKubernetesClient();
    ns = OPERATOR.getNamespace();
    root = Files.createTempDirectory("dht-scaling");
    kubelet =
        Thread.ofPlatform().daemon().name("stand-in-kubelet").start(ScalingOperatorTest::kubelet);
  }

  @AfterAll
  static void stop() throws InterruptedException {
    kubeletRunning.set(false);
    kubelet.join(10_000);
    for (Node node : nodes) {
      if (node != null) {
        node.close();
      }
    }
  }

  /** A node's URL in the cluster → its local address. */
  static String local(String url) {
    Matcher m = ORDINAL.matcher(url);
    return m.find()
        ? url.replace(m.group(), "http://127.0.0.1:" + PORTS[Integer.parseInt(m.group(1))])
        : url;
  }

  @Test
  void scalesUpAndDownUnderLoadWithAChangeDuringAChange() throws Exception {
    var cluster = Clusters.cluster(NAME, ns, 3);
    cluster.getMetadata().setGeneration(null);
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    client.resource(cluster).create();
    awaitStatus(s -> Conditions.isTrue(s.getConditions(), Conditions.READY));

    Map<String, Long> acked = new ConcurrentHashMap<>();
    for (int k = 0; k < KEYS; k++) {
      assertThat(put(k % 3, "s-" + k, 0, 3)).isEqualTo(201);
      acked.put("s-" + k, 0L);
    }
    AtomicLong notFound = new AtomicLong();
    AtomicLong older = new AtomicLong();
    AtomicLong writes = new AtomicLong();
    AtomicBoolean loading = new AtomicBoolean(true);
    Thread writer =
        Thread.ofPlatform()
            .start(() -> {
              for (long v = 1; loading.get(); v++) {
                String key = "s-" + ThreadLocalRandom.current().nextInt(KEYS);
                if (put((int) (v % 3), key, v, 2) == 201) {
                  acked.merge(key, v, Math::max);
                  writes.incrementAndGet();
                }
              }
            });
    Thread reader =
        Thread.ofPlatform()
            .start(() -> {
              for (int n = 0; loading.get(); n++) {
                String key = "s-" + ThreadLocalRandom.current().nextInt(KEYS);
                long atLeast = acked.get(key);
                HttpResponse<String> got = get(n % 3, key, 2);
                if (got == null) {
                  continue;
                }
                if (got.statusCode() == 404) {
                  notFound.incrementAndGet();
                } else if (got.statusCode() == 200 && Long.parseLong(got.body()) < atLeast) {
                  older.incrementAndGet();
                }
              }
            });

    var clusters = client.resources(DhtCluster.class).inNamespace(ns).withName(NAME);
    clusters.scale(5);
    awaitStatus(s ->
        s.getMembership() != null
            && s.getMembership().getTarget() == 5
            && s.getMembership().getStep().compareTo(Membership.Step.JOINING) >= 0);
    clusters.scale(4); // a change during a change: it waits for the first one
    var waiting =
        awaitStatus(s ->
            Conditions.find(s.getConditions(), Conditions.PROGRESSING)
                .map(c -> c.getMessage().contains("the change to 4 replicas waits"))
                .orElse(false));
    assertThat(waiting.getNodes())
        .as("each node's progress is in the status")
        .extracting(NodeProgress::getName)
        .containsExactly("scale-0", "scale-1", "scale-2", "scale-3", "scale-4");
    awaitStatus(s ->
        s.getMembership().getStep() == Membership.Step.STABLE
            && s.getMembership().getMembers() == 4);
    assertThat(copies(4)).as("copies on 4 nodes").isEqualTo(3 * KEYS);

    clusters.scale(3);
    var done =
        awaitStatus(s ->
            s.getMembership().getStep() == Membership.Step.STABLE
                && s.getMembership().getMembers() == 3
                && Conditions.isTrue(s.getConditions(), Conditions.READY));
    loading.set(false);
    writer.join(10_000);
    reader.join(10_000);

    assertThat(writes.get()).isPositive();
    assertThat(notFound.get()).as("reads of acknowledged keys that found nothing").isZero();
    assertThat(older.get()).as("reads older than an acknowledged write").isZero();
    assertThat(copies(3)).as("copies on 3 nodes").isEqualTo(3 * KEYS);
    assertThat(done.getDefaultFrom()).as("the default from stayed").isEqualTo(3);
    assertThat(client.v1().events().inNamespace(ns).list().getItems())
        .anyMatch(e -> "Scaling".equals(e.getReason()));
    Awaitility.await("the claims of the removed members are kept, labelled detached")
        .atMost(TIMEOUT)
        .until(() ->
            client.persistentVolumeClaims().inNamespace(ns).list().getItems().stream()
                .filter(c -> "true".equals(c.getMetadata().getLabels().get("dht.dev/detached")))
                .map(c -> c.getMetadata().getName())
                .sorted()
                .toList()
                .equals(java.util.List.of("data-scale-3", "data-scale-4")));
  }

  private static int put(int node, String key, long version, int ack) {
    try {
      return http.send(
              HttpRequest.newBuilder(entity(node, key, ack))
                  .timeout(Duration.ofSeconds(10))
                  .PUT(HttpRequest.BodyPublishers.ofString(Long.toString(version)))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static HttpResponse<String> get(int node, String key, int ack) {
    try {
      return http.send(
          HttpRequest.newBuilder(entity(node, key, ack)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static URI entity(int node, String key, int ack) {
    return URI.create(
        "http://127.0.0.1:" + PORTS[node] + "/v0/entity?id=" + key + "&ack=" + ack + "&from=3");
  }

  /** The live entries of nodes 0..count-1, summed (each node's own replica). */
  private static int copies(int count) throws Exception {
    int copies = 0;
    for (int i = 0; i < count; i++) {
      String body =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + PORTS[i] + "/v0/entities?start=s"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      copies += (int) body.split("s-", -1).length - 1;
    }
    return copies;
  }

  private static DhtClusterStatus awaitStatus(Predicate<DhtClusterStatus> condition) {
    return Awaitility.await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () ->
                client.resources(DhtCluster.class).inNamespace(ns).withName(NAME).get().getStatus(),
            s -> s != null && condition.test(s));
  }

  /** The stand-in kubelet's loop: run a node per pod, project the ConfigMap, report readiness. */
  private static void kubelet() {
    while (kubeletRunning.get()) {
      try {
        ConfigMap config = client.configMaps().inNamespace(ns).withName(NAME + "-config").get();
        Secret secret = client.secrets().inNamespace(ns).withName(NAME + "-secret").get();
        for (int i = 0; i < MAX_NODES; i++) {
          Pod pod = client.pods().inNamespace(ns).withName(NAME + "-" + i).get();
          if (pod == null && nodes[i] != null) {
            nodes[i].close();
            nodes[i] = null;
          } else if (pod != null && config != null && secret != null) {
            project(i, config, secret);
            if (nodes[i] == null) {
              nodes[i] = Node.start(Main.config(flags(i)));
            }
            if (!ready(pod)) {
              setReady(pod);
            }
          }
        }
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        // the apiserver or a node start failed this turn: try again next turn
      }
    }
  }

  private static String[] flags(int i) {
    Path dir = root.resolve("node-" + i);
    return new String[] {
      "--self",
      "http://127.0.0.1:" + PORTS[i],
      "--port",
      Integer.toString(PORTS[i]),
      "--node-id",
      Integer.toString(i),
      "--data-dir",
      dir.resolve("data").toString(),
      "--cluster-file",
      dir.resolve("members").toString(),
      "--settings-file",
      dir.resolve("settings.properties").toString(),
      "--cluster-secret-file",
      dir.resolve("secret").toString(),
      "--event-loops",
      "1",
      "--storage-threads",
      "2",
      "--block-cache-mb",
      "8",
      "--repair-interval-s",
      "0",
      "--request-timeout-ms",
      "3000"
    };
  }

  /** Writes the ConfigMap's files and the secret where node {@code i} reads them, if changed. */
  private static void project(int i, ConfigMap config, Secret secret) throws IOException {
    Path dir = Files.createDirectories(root.resolve("node-" + i));
    StringBuilder members = new StringBuilder();
    for (String line : config.getData().get("members").split("\n")) {
      members.append(local(line)).append('\n');
    }
    write(dir.resolve("members"), members.toString());
    write(dir.resolve("settings.properties"), config.getData().get("settings.properties"));
    write(
        dir.resolve("secret"),
        new String(
            Base64.getDecoder().decode(secret.getData().get("secret")), StandardCharsets.UTF_8));
  }

  private static void write(Path file, String content) throws IOException {
    if (Files.exists(file) && Files.readString(file).equals(content)) {
      return;
    }
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.writeString(next, content);
    Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static void setReady(Pod pod) {
    String now = Instant.now().toString();
    pod.setStatus(
        new PodStatusBuilder(pod.getStatus())
            .withPhase("Running")
            .withConditions(
                new PodConditionBuilder()
                    .withType("Ready")
                    .withStatus("True")
                    .withLastTransitionTime(now)
                    .build(),
                new PodConditionBuilder()
                    .withType("ContainersReady")
                    .withStatus("True")
                    .withLastTransitionTime(now)
                    .build())
            .build());
    client.resource(pod).updateStatus();
  }

  private static int[] freePorts(int count) {
    int[] ports = new int[count];
    for (int i = 0; i < count; i++) {
      try (ServerSocket socket = new ServerSocket(0)) {
        ports[i] = socket.getLocalPort();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return ports;
  }
}
