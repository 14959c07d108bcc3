package dev.dht.operator.cluster;

import dev.dht.node.Node;
import dev.dht.node.NodeOptions;
import dev.dht.node.it.Ports;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
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
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * Does the kubelet's part for a cluster's pods on an apiserver without one (the StatefulSet
 * controller creates and deletes them): runs a real node (in this JVM, on a local port) for each
 * pod, restarted when its pod is recreated; projects the ConfigMap's members file and the Secret
 * into it (pod DNS names rewritten to the local ports); and reports the pod Ready while its node
 * answers its readiness probe ({@code /health/ready}), unless the test holds it not Ready. The
 * operator reaches the nodes through {@link #local}.
 *
 * <p>Like a kubelet, it confirms a pod's deletion only once its container stopped (a finalizer,
 * removed a second after the deletion is seen): a deleted pod is terminating for a while, not gone
 * at once. The disruption controller must see it terminating, or it takes the pod recreated under
 * the same name for the one just evicted and counts it unhealthy for two minutes.
 *
 * <p>A pod's volume is its claim {@code data-<pod>}: a node's data directory belongs to the claim
 * (a new claim is an empty volume), and a pod whose claim is missing or being deleted does not
 * start (it stays Pending, as a kubelet refuses it). Since the pods are never scheduled, the
 * apiserver's pvc-protection would let a claim go at once: a finalizer of this stand-in holds a
 * claim in use until its pod is gone, as pvc-protection holds it for a scheduled pod.
 */
final class StandInKubelet implements AutoCloseable {
  private static final String FINALIZER = "dht.dev/test-kubelet";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private final KubernetesClient client;
  private final String ns;
  private final String name;
  private final int[] ports;
  private final Path root;
  private final Node[] nodes;
  private final String[] uids;
  private final String[] claims;
  private final Set<Integer> heldNotReady = ConcurrentHashMap.newKeySet();
  private final Set<Integer> heldConfig = ConcurrentHashMap.newKeySet();
  private final Map<String, Instant> stopping = new ConcurrentHashMap<>();
  private volatile IntFunction<String> placement;
  private volatile boolean running = true;
  private final Thread loop;

  /** Runs the nodes of pods {@code name-0..}, node i on {@code ports[i]}. */
  StandInKubelet(KubernetesClient client, String ns, String name, int[] ports) throws IOException {
    this.client = client;
    this.ns = ns;
    this.name = name;
    this.ports = ports;
    this.root = Files.createTempDirectory("dht-kubelet");
    this.nodes = new Node[ports.length];
    this.uids = new String[ports.length];
    this.claims = new String[ports.length];
    this.loop = Thread.ofPlatform().daemon().name("stand-in-kubelet").start(this::run);
  }

  /** A node's URL in the cluster (of pod {@code name-i}) → its local address. */
  static String local(String url, String name, int[] ports) {
    Matcher m = Pattern.compile("^http://" + name + "-(\\d+)\\.[^/]*:8080").matcher(url);
    return m.find()
        ? url.replace(m.group(), "http://127.0.0.1:" + ports[Integer.parseInt(m.group(1))])
        : url;
  }

  /**
   * Binds each pod not scheduled yet, {@code name-i}, to the Kubernetes node {@code nodeOf(i)} (as
   * a scheduler does), so that its {@code spec.nodeName} names that Node.
   */
  void placeOn(IntFunction<String> nodeOf) {
    placement = nodeOf;
  }

  /** Keeps pod {@code i} not Ready (its node runs on) until {@link #release}. */
  void holdNotReady(int i) {
    heldNotReady.add(i);
  }

  void release(int i) {
    heldNotReady.remove(i);
  }

  /**
   * Stops refreshing running node {@code i}'s files from the ConfigMap (as a kubelet that is slow
   * to sync it) until {@link #releaseConfig}.
   */
  void holdConfig(int i) {
    heldConfig.add(i);
  }

  void releaseConfig(int i) {
    heldConfig.remove(i);
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    loop.join(10_000);
    for (Node node : nodes) {
      if (node != null) {
        node.close();
      }
    }
    for (int i = 0; i < nodes.length; i++) {
      try {
        confirmDeletion(client.pods().inNamespace(ns).withName(name + "-" + i).get());
        releaseClaim(client.persistentVolumeClaims().inNamespace(ns).withName(claimName(i)).get());
      } catch (RuntimeException e) {
        // the namespace goes anyway
      }
    }
  }

  private String claimName(int i) {
    return "data-" + name + "-" + i;
  }

  private void run() {
    while (running) {
      try {
        ConfigMap config = client.configMaps().inNamespace(ns).withName(name + "-config").get();
        Secret secret = client.secrets().inNamespace(ns).withName(name + "-secret").get();
        for (int i = 0; i < nodes.length; i++) {
          Pod pod = client.pods().inNamespace(ns).withName(name + "-" + i).get();
          String uid = pod == null ? null : pod.getMetadata().getUid();
          boolean deleted = pod != null && pod.getMetadata().getDeletionTimestamp() != null;
          if (nodes[i] != null && (deleted || !uid(i).equals(String.valueOf(uid)))) {
            nodes[i].close(); // the pod is deleted, gone or another one: its container stops
            nodes[i] = null;
          }
          var claim = client.persistentVolumeClaims().inNamespace(ns).withName(claimName(i)).get();
          if (nodes[i] == null && !deleted) {
            releaseClaim(claim); // no container uses it, and no pod that is still stopping
          }
          if (deleted) {
            if (stopping
                .computeIfAbsent(uid, u -> Instant.now())
                .plusSeconds(1)
                .isBefore(Instant.now())) {
              confirmDeletion(pod);
            }
            continue;
          }
          if (pod != null && !pod.getMetadata().getFinalizers().contains(FINALIZER)) {
            pod =
                client
                    .pods()
                    .inNamespace(ns)
                    .withName(pod.getMetadata().getName())
                    .edit(p -> {
                      p.getMetadata().getFinalizers().add(FINALIZER);
                      return p;
                    });
          }
          if (pod != null && pod.getSpec().getNodeName() == null && placement != null) {
            bind(pod, placement.apply(i));
          }
          boolean volume = claim != null && claim.getMetadata().getDeletionTimestamp() == null;
          if (pod != null && config != null && secret != null && (nodes[i] != null || volume)) {
            if (nodes[i] == null || !heldConfig.contains(i)) {
              project(i, config, secret, pod);
            }
            if (nodes[i] == null) {
              holdClaim(claim);
              claims[i] = claim.getMetadata().getUid();
              nodes[i] = Node.start(NodeOptions.parse(flags(i)));
              uids[i] = uid;
            }
            boolean ready = !heldNotReady.contains(i) && answersReady(i);
            if (ready(pod) != ready) {
              setReady(pod, ready);
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

  private void bind(Pod pod, String nodeName) {
    client
        .bindings()
        .inNamespace(ns)
        .resource(
            new BindingBuilder()
                .withNewMetadata()
                .withName(pod.getMetadata().getName())
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(nodeName)
                .endTarget()
                .build())
        .create();
  }

  /** Lets a deleted pod go (the kubelet's confirmation). */
  private void confirmDeletion(Pod pod) {
    if (pod != null && pod.getMetadata().getFinalizers().contains(FINALIZER)) {
      client
          .pods()
          .inNamespace(ns)
          .withName(pod.getMetadata().getName())
          .edit(p -> {
            p.getMetadata().getFinalizers().remove(FINALIZER);
            return p;
          });
    }
  }

  /** Holds the claim a node starts on, as pvc-protection does for a scheduled pod. */
  private void holdClaim(PersistentVolumeClaim claim) {
    if (!claim.getMetadata().getFinalizers().contains(FINALIZER)) {
      client
          .persistentVolumeClaims()
          .inNamespace(ns)
          .withName(claim.getMetadata().getName())
          .edit(c -> {
            c.getMetadata().getFinalizers().add(FINALIZER);
            return c;
          });
    }
  }

  private void releaseClaim(PersistentVolumeClaim claim) {
    if (claim != null && claim.getMetadata().getFinalizers().contains(FINALIZER)) {
      client
          .persistentVolumeClaims()
          .inNamespace(ns)
          .withName(claim.getMetadata().getName())
          .edit(c -> {
            c.getMetadata().getFinalizers().remove(FINALIZER);
            return c;
          });
    }
  }

  /** The readiness probe: node i answers 200 on /health/ready. */
  private boolean answersReady(int i) {
    try {
      return HTTP.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + ports[i] + "/health/ready"))
                      .timeout(Duration.ofSeconds(2))
                      .build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private String uid(int i) {
    return String.valueOf(uids[i]);
  }

  private String[] flags(int i) throws IOException {
    Path dir = root.resolve("node-" + i);
    Path volume = dir.resolve("volume-" + claims[i]);
    var flags =
        new ArrayList<>(
            List.of(
                "--self",
                "http://127.0.0.1:" + ports[i],
                "--port",
                Integer.toString(ports[i]),
                "--node-id",
                Integer.toString(i),
                "--data-dir",
                volume.resolve("data").toString(),
                "--cluster-file",
                dir.resolve("members").toString(),
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
                "3000",
                // the flags a pod gets with spec.backup and spec.bootstrap.backup; a missing file
                // is
                // no store, no restore
                "--backup-store-file",
                dir.resolve(BackupWiring.STORE_KEY).toString(),
                "--restore-file",
                dir.resolve(BackupWiring.RESTORE_KEY).toString()));
    return flags.toArray(String[]::new);
  }

  /** The cluster secret node {@code i} was last given. */
  String secret(int i) throws IOException {
    return Files.readString(root.resolve("node-" + i).resolve("secret")).strip();
  }

  /**
   * Writes the ConfigMap's files and the secret where node {@code i} reads them, if changed; the
   * backup files with their credentials directories pointed at the local copies of the Secrets that
   * the pod mounts there.
   */
  private void project(int i, ConfigMap config, Secret secret, Pod pod) throws IOException {
    Path dir = Files.createDirectories(root.resolve("node-" + i));
    StringBuilder members = new StringBuilder();
    for (String line : config.getData().get("members").split("\n")) {
      members.append(local(line, name, ports)).append('\n');
    }
    write(dir.resolve("members"), members.toString());
    write(
        dir.resolve("secret"),
        new String(
            Base64.getDecoder().decode(secret.getData().get("secret")), StandardCharsets.UTF_8));
    for (String key : List.of(BackupWiring.STORE_KEY, BackupWiring.RESTORE_KEY)) {
      String text = config.getData().get(key);
      if (text == null) {
        Files.deleteIfExists(dir.resolve(key));
        continue;
      }
      for (var volume : pod.getSpec().getVolumes()) {
        if (volume.getSecret() == null || !text.contains(mountPath(pod, volume.getName()))) {
          continue;
        }
        Path local = Files.createDirectories(dir.resolve(volume.getName()));
        var credentials =
            client.secrets().inNamespace(ns).withName(volume.getSecret().getSecretName()).get();
        if (credentials != null && credentials.getData() != null) {
          for (var item : credentials.getData().entrySet()) {
            write(
                local.resolve(item.getKey()),
                new String(Base64.getDecoder().decode(item.getValue()), StandardCharsets.UTF_8));
          }
        }
        text = text.replace(mountPath(pod, volume.getName()), local.toString());
      }
      write(dir.resolve(key), text);
    }
  }

  /** Where the node container mounts {@code volume}; "\0" if it does not. */
  private static String mountPath(Pod pod, String volume) {
    return pod.getSpec().getContainers().getFirst().getVolumeMounts().stream()
        .filter(m -> m.getName().equals(volume))
        .map(m -> m.getMountPath())
        .findFirst()
        .orElse("\0");
  }

  private static void write(Path file, String content) throws IOException {
    if (Files.exists(file) && Files.readString(file).equals(content)) {
      return;
    }
    Path next = file.resolveSibling(file.getFileName() + ".next");
    Files.writeString(next, content);
    Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  static boolean ready(Pod pod) {
    return pod.getStatus() != null
        && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private void setReady(Pod pod, boolean ready) {
    String now = Instant.now().toString();
    String status = ready ? "True" : "False";
    pod.setStatus(
        new PodStatusBuilder(pod.getStatus())
            .withPhase("Running")
            .withConditions(
                new PodConditionBuilder()
                    .withType("Ready")
                    .withStatus(status)
                    .withLastTransitionTime(now)
                    .build(),
                new PodConditionBuilder()
                    .withType("ContainersReady")
                    .withStatus(status)
                    .withLastTransitionTime(now)
                    .build())
            .build());
    client.resource(pod).updateStatus();
  }

  /** {@code count} free ports, none of them given before in this JVM ({@link Ports}). */
  static int[] freePorts(int count) {
    return IntStream.range(0, count).map(i -> Ports.free()).toArray();
  }
}
