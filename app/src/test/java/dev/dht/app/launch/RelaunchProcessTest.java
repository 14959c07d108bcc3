package dev.dht.app.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.node.it.Ports;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node started with no heap option runs in a JVM started again, in the same process, with the
 * heap defaults: the PID its starter knows serves requests, and killing it stops the node. With a
 * heap option of the user's own, the JVM is not started again.
 */
class RelaunchProcessTest {
  @TempDir Path root;

  @Test
  void withoutHeapOptionsTheSameProcessRunsWithTheDefaults() throws Exception {
    int port = Ports.free();
    Process node = start(port, List.of());
    try {
      awaitReady(port);
      String commandLine = commandLine(node);
      assertThat(commandLine).contains("-Xms", "-XX:+AlwaysPreTouch");
      assertThat(Files.readString(root.resolve("log")))
          .contains("no heap option given; starting the JVM again with -Xms");
      assertThat(put(port).statusCode()).isEqualTo(201);
      assertThat(node.children().count()).isZero();
    } finally {
      node.destroyForcibly().waitFor();
    }
    assertThat(node.exitValue()).isEqualTo(137); // SIGKILL reached the node itself
  }

  @Test
  void aHeapOptionOfTheUsersIsKept() throws Exception {
    int port = Ports.free();
    Process node = start(port, List.of("-Xmx200m"));
    try {
      awaitReady(port);
      assertThat(commandLine(node)).contains("-Xmx200m").doesNotContain("-Xms", "AlwaysPreTouch");
      assertThat(Files.readString(root.resolve("log"))).doesNotContain("no heap option given");
    } finally {
      node.destroyForcibly().waitFor();
    }
  }

  private Process start(int port, List<String> jvmOptions) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--enable-native-access=ALL-UNNAMED");
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            "dev.dht.app.DhtMain",
            "--self",
            "http://127.0.0.1:" + port,
            "--cluster",
            "http://127.0.0.1:" + port,
            "--data-dir",
            root.resolve("data").toString(),
            "--event-loops",
            "1",
            "--block-cache-mb",
            "8"));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(root.resolve("log").toFile());
    builder
        .environment()
        .keySet()
        .removeIf(name -> name.startsWith("DHT_") || name.endsWith("JAVA_OPTIONS"));
    return builder.start();
  }

  private static String commandLine(Process node) throws Exception {
    return new String(
            Files.readAllBytes(Path.of("/proc", Long.toString(node.pid()), "cmdline")),
            StandardCharsets.UTF_8)
        .replace('\0', ' ');
  }

  private static void awaitReady(int port) {
    HttpClient client = HttpClient.newHttpClient();
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(() ->
            client
                    .send(
                        HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + port + "/health/ready"))
                            .build(),
                        HttpResponse.BodyHandlers.discarding())
                    .statusCode()
                == 200);
  }

  private static HttpResponse<Void> put(int port) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v0/entity?id=k"))
                .PUT(HttpRequest.BodyPublishers.ofString("v"))
                .build(),
            HttpResponse.BodyHandlers.discarding());
  }
}
