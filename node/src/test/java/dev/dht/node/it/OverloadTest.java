package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.dht.node.Node;
import dev.dht.node.NodeOptions;
import dev.dht.node.it.DhtClient.Reply;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md §2: overload is refused at once with 503 and Retry-After, never queued; a request whose
 * replicas never answer gets 504 at its deadline. The node's two peers are sockets that accept
 * connections (in the kernel backlog) and never answer, so replica calls hang.
 */
class OverloadTest {
  @TempDir Path root;

  @Test
  void requestsBeyondMaxInflightGet503WithRetryAfterAndHangingReplicasGive504() throws Exception {
    try (ServerSocket silent1 = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ServerSocket silent2 = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      int port = Ports.free();
      String self = "http://127.0.0.1:" + port;
      Node node =
          Node.start(
              NodeOptions.parse(
                  "--self",
                  self,
                  "--cluster",
                  self
                      + ",http://127.0.0.1:"
                      + silent1.getLocalPort()
                      + ",http://127.0.0.1:"
                      + silent2.getLocalPort(),
                  "--data-dir",
                  root.resolve("node").toString(),
                  "--event-loops",
                  "1",
                  "--storage-threads",
                  "2",
                  "--block-cache-mb",
                  "8",
                  "--max-inflight",
                  "1",
                  "--insecure",
                  "--request-timeout-ms",
                  "4000"));
      try (DhtClient client = new DhtClient(port)) {
        // ack=2 of 3: only this node answers, so the request is held until its deadline
        CompletableFuture<Reply> hanging =
            CompletableFuture.supplyAsync(() -> client.put("held", "v", 2, 3));
        await("the first request is in flight")
            .atMost(Duration.ofSeconds(10))
            .until(() -> inflight(client) >= 1);

        for (Reply refused :
            new Reply[] {client.put("other", "v", 1, 1), client.get("other"), client.delete("x")}) {
          assertThat(refused.status()).as("%s", refused).isEqualTo(503);
          assertThat(refused.header("Retry-After")).as("Retry-After").matches("[1-9][0-9]*");
          assertThat(refused.text()).isNotBlank();
        }
        assertThat(hanging)
            .as("the 503s were answered while the first request was held")
            .isNotDone();
        // service endpoints are not admission-controlled
        assertThat(client.send("GET", "/v0/status", BodyPublishers.noBody()).status())
            .isEqualTo(200);

        Reply deadline = hanging.get(30, TimeUnit.SECONDS);
        assertThat(deadline.status()).isEqualTo(504);
        assertThat(deadline.text()).isNotBlank();

        // the slot is free again: a request needing only this node's own answer succeeds
        assertThat(client.put("after", "v", 1, 3).status()).isEqualTo(201);
        assertThat(client.send("GET", "/metrics", BodyPublishers.noBody()).text())
            .containsPattern("dht_requests\\w*_count\\{[^}]*operation=\"put\"[^}]*status=\"503\"")
            .containsPattern("dht_requests\\w*_count\\{[^}]*operation=\"put\"[^}]*status=\"504\"");
      } finally {
        node.close();
      }
    }
  }

  private static double inflight(DhtClient client) {
    return MetricsText.of(client).value("dht_inflight_requests", "traffic=\"client\"");
  }
}
