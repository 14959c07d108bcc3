package dev.dht.operator.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A real cert-manager for one test class: its CRDs applied to the apiserver and its controller as a
 * process watching only the test's namespace ({@code scripts/cert-manager.sh} builds both into
 * target/cert-manager; {@code make test} runs it). It needs no pods: it talks to the apiserver.
 */
final class CertManager implements AutoCloseable {
  private static final Path DIR =
      Path.of(System.getProperty("dht.certmanager.dir", "../target/cert-manager"));

  private final Process process;

  private CertManager(Process process) {
    this.process = process;
  }

  /** Applies the CRDs and starts the controller for {@code namespace}. */
  static CertManager start(KubernetesClient client, String namespace) throws IOException {
    Path controller = DIR.resolve("controller");
    if (!Files.isExecutable(controller)) {
      throw new IllegalStateException(
          controller.toAbsolutePath()
              + " is missing: run scripts/cert-manager.sh (make test does) to build cert-manager");
    }
    try (InputStream crds = Files.newInputStream(DIR.resolve("crds.yaml"))) {
      for (HasMetadata item : client.load(crds).items()) {
        client.resource(item).forceConflicts().serverSideApply();
      }
    }
    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptions()
        .until(() ->
            client
                .apiextensions()
                .v1()
                .customResourceDefinitions()
                .withName("certificates.cert-manager.io")
                .get()
                .getStatus()
                .getConditions()
                .stream()
                .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True")));
    String kubeconfig = System.getenv("KUBECONFIG");
    Path log = Path.of("target", "cert-manager-" + namespace + ".log");
    var process =
        new ProcessBuilder(
                controller.toString(),
                "--kubeconfig=" + kubeconfig,
                "--leader-elect=false",
                "--namespace=" + namespace,
                "--cluster-resource-namespace=" + namespace,
                "--metrics-listen-address=127.0.0.1:0",
                "--v=2")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new CertManager(process);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
