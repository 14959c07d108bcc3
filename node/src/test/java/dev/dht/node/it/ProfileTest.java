package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node profiles its JVM with async-profiler on request (cluster secret), for the time asked, and
 * then serves one flame graph per event: a cpu and an alloc profile taken while writes run show the
 * node's own code.
 */
class ProfileTest {
  private static final String SECRET = "profile-test-secret";
  private static final String HEADER = "X-Dht-Cluster-Secret";

  @TempDir Path root;

  @Test
  void profilesOnRequestAndServesAFlameGraphPerEvent() throws Exception {
    try (var cluster = LocalCluster.start(root, 1, LocalCluster.secretFlags(root, SECRET))) {
      var client = cluster.client(0);
      try (var anonymous = new DhtClient(cluster.port(0))) {
        assertThat(post(anonymous, "events=cpu,alloc&seconds=2", Map.of()).status())
            .as("without the secret")
            .isEqualTo(401);
        assertThat(anonymous.send("GET", "/v0/admin/profile", BodyPublishers.noBody()).status())
            .as("admin GETs need it too")
            .isEqualTo(401);
      }
      assertThat(post(client, "events=cpu,wall&seconds=2", Map.of(HEADER, SECRET)).text())
          .contains("exclude each other");
      assertThat(post(client, "events=heap", Map.of(HEADER, SECRET)).status()).isEqualTo(400);
      assertThat(post(client, "events=cpu&seconds=0", Map.of(HEADER, SECRET)).status())
          .isEqualTo(400);

      AtomicBoolean writing = new AtomicBoolean(true);
      Thread writer =
          Thread.ofPlatform()
              .start(() -> {
                for (int i = 0; writing.get(); i++) {
                  client.put("p-" + (i % 1000), "v" + i);
                }
              });
      try {
        Thread.sleep(1500); // traffic before the profile: what its overhead is measured against
        assertThat(post(client, "events=cpu,alloc&seconds=2", Map.of(HEADER, SECRET)).status())
            .isEqualTo(202);
        assertThat(post(client, "events=lock&seconds=2", Map.of(HEADER, SECRET)).status())
            .as("one profile at a time")
            .isEqualTo(409);
        assertThat(get(client, "/v0/admin/profile").text()).contains("\"state\":\"running\"");
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(250))
            .until(() -> get(client, "/v0/admin/profile").text().contains("\"state\":\"done\""));
      } finally {
        writing.set(false);
        writer.join(10_000);
      }
      var overhead =
          new io.vertx.core.json.JsonObject(get(client, "/v0/admin/profile").text())
              .getJsonObject("overhead");
      assertThat(overhead.getLong("requestsBefore")).isPositive();
      assertThat(overhead.getLong("requestsDuring")).isPositive();
      if (!overhead.containsKey("unmeasured")) {
        assertThat(overhead.getDouble("cpuMsPerRequestDuring")).isPositive();
      }
      var cpu = get(client, "/v0/admin/profile/cpu.html");
      assertThat(cpu.status()).isEqualTo(200);
      assertThat(cpu.header("content-type")).startsWith("text/html");
      // the node's own code shows as dev/dht/node or dev.dht.node (allocated types) in a frame
      assertThat(frameNames(cpu.text())).containsPattern("dev[./]dht[./]node");
      assertThat(cpu.text()).contains("cpu, 2 s");
      var alloc = get(client, "/v0/admin/profile/alloc.html");
      assertThat(alloc.status()).isEqualTo(200);
      assertThat(frameNames(alloc.text())).containsPattern("dev[./]dht[./]node");
      assertThat(alloc.text()).contains("alloc, 2 s");
      assertThat(get(client, "/v0/admin/profile/lock.html").status())
          .as("not asked for")
          .isEqualTo(404);
      try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
        assertThat(files.filter(f -> f.getFileName().toString().startsWith("dht-profile-")))
            .allSatisfy(dir -> assertThat(dir.resolve("profile.jfr")).doesNotExist());
      }
    }
  }

  private static DhtClient.Reply post(DhtClient client, String query, Map<String, String> headers) {
    return client.send("POST", "/v0/admin/profile?" + query, BodyPublishers.noBody(), headers);
  }

  private static DhtClient.Reply get(DhtClient client, String path) {
    return client.send("GET", path, BodyPublishers.noBody());
  }

  /**
   * The frame names of an async-profiler flame graph, one a line. The page stores them
   * prefix-compressed (each entry's first character is 32 + how many characters it shares with the
   * entry before), so a name need not appear in the page as it is.
   */
  private static String frameNames(String html) {
    int start = html.indexOf("const cpool = [");
    String pool = html.substring(start, html.indexOf("];", start));
    var names = new StringBuilder();
    String previous = "";
    for (var m = java.util.regex.Pattern.compile("(?m)^'((?:[^'\\\\]|\\\\.)*)'").matcher(pool);
        m.find(); ) {
      String entry = m.group(1).replaceAll("\\\\(.)", "$1"); // a JS string literal's escapes
      String name =
          names.isEmpty()
              ? entry
              : previous.substring(0, entry.charAt(0) - 32) + entry.substring(1);
      names.append(name).append('\n');
      previous = name;
    }
    return names.toString();
  }
}
