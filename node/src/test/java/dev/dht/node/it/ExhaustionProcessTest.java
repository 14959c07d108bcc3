package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node processes with small heaps against clients and peers that would exhaust them: many slow
 * uploads of large declared bodies, and a peer that accepts connections and never answers while
 * writes keep coming. The node must neither run out of memory nor stop serving, and must leave
 * nothing in flight afterwards.
 */
class ExhaustionProcessTest {
  private static final int MIB = 1 << 20;
  private static final int UPLOADS = 128;

  @TempDir Path root;

  @Test
  void slowUploadsOfLargeBodiesCannotExhaustA256MbNode() throws Exception {
    try (NodeProcess node =
            NodeProcess.start(
                root.resolve("node"), Ports.free(), "256m", "--body-timeout-ms", "3000");
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      // 1. Trickled: each declares 1 MiB and sends 1 KiB every 200 ms, past the deadline.
      List<Future<List<Integer>>> trickled = new ArrayList<>();
      for (int i = 0; i < UPLOADS; i++) {
        trickled.add(threads.submit(() -> upload(node.port(), 1024, 25, 200)));
      }
      servesOthersMeanwhile(node, true);
      assertAnswers(trickled, List.of(408));

      // 2. Nearly whole: each sends 1 MiB - 1 byte at once, then stalls: 128 MiB on a 256 MB heap.
      List<Future<List<Integer>>> stalled = new ArrayList<>();
      for (int i = 0; i < UPLOADS; i++) {
        stalled.add(threads.submit(() -> upload(node.port(), MIB - 1, 1, 0)));
      }
      servesOthersMeanwhile(node, false);
      assertAnswers(stalled, List.of(408, 503));

      assertThat(node.alive()).as(node.log()).isTrue();
      assertThat(node.log()).doesNotContain("OutOfMemoryError");
      node.awaitNothingInFlight();
      assertThat(node.client().put("after", "uploads").status()).isEqualTo(201);
    }
  }

  @Test
  void aPeerThatNeverAnswersCannotGrowTheHeap() throws Exception {
    try (ServerSocket hung = new ServerSocket(0, 1000, InetAddress.getLoopbackAddress())) {
      int port = Ports.free();
      List<String> members =
          List.of("http://127.0.0.1:" + port, "http://127.0.0.1:" + hung.getLocalPort());
      String[] secret = LocalCluster.secretFlags(root, "exhaustion-secret");
      // first alone, so that it runs on its own data: a node that starts empty serves no read
      // before every peer has told it whether it missed data, and this peer never answers
      NodeProcess.start(root.resolve("node"), port, "128m").terminate(30);
      try (NodeProcess node =
              NodeProcess.start(root.resolve("node"), port, members, "128m", secret[0], secret[1]);
          ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
          HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
        byte[] value = new byte[64 * 1024];
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 32; w++) {
          int writer = w;
          writers.add(
              threads.submit(() -> {
                for (int i = 0; System.nanoTime() < end; i++) {
                  HttpRequest put =
                      HttpRequest.newBuilder(
                              URI.create(
                                  "http://127.0.0.1:"
                                      + port
                                      + "/v0/entity?id=w"
                                      + writer
                                      + "-"
                                      + i
                                      + "&ack=1&from=2"))
                          .timeout(Duration.ofSeconds(30))
                          .PUT(HttpRequest.BodyPublishers.ofByteArray(value))
                          .build();
                  int status = http.send(put, BodyHandlers.discarding()).statusCode();
                  statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                }
                return null;
              }));
        }
        for (Future<?> writer : writers) {
          writer.get(60, TimeUnit.SECONDS);
        }
        assertThat(statuses.keySet()).as("statuses %s", statuses).isSubsetOf(201, 503);
        assertThat(statuses.get(201).get()).isPositive();
        assertThat(node.alive()).as(node.log()).isTrue();
        assertThat(node.log()).doesNotContain("OutOfMemoryError");
        MetricsText metrics = MetricsText.of(node.client());
        assertThat(metrics.value("dht_peer_ops_shed_total", "")).as("ops shed").isPositive();
        node.awaitNothingInFlight();
        assertThat(node.client().get("w0-0", 1, 2).status()).isEqualTo(200);
      }
    }
  }

  /**
   * Declares a 1 MiB body, sends {@code times} pieces of {@code bytes} with {@code pauseMs} between
   * them, then waits for the node's answers.
   */
  private static List<Integer> upload(int port, int bytes, int times, long pauseMs)
      throws InterruptedException {
    try (RawSocket socket = new RawSocket(port)) {
      socket.send(
          "PUT /v0/entity?id=upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + MIB + "\r\n\r\n");
      byte[] piece = new byte[bytes];
      for (int i = 0; i < times && socket.send(piece); i++) {
        Thread.sleep(pauseMs);
      }
      return RawSocket.statuses(socket.readAll(10_000));
    }
  }

  /** While the uploads run: reads always work; writes too unless the body budget is full. */
  private static void servesOthersMeanwhile(NodeProcess node, boolean writesToo) {
    for (int i = 0; i < 20; i++) {
      int put = node.client().put("other-" + i, "v").status();
      if (writesToo) {
        assertThat(put).isEqualTo(201);
      } else {
        assertThat(put).isIn(201, 503);
      }
      assertThat(node.client().get("other-" + i).status()).isIn(put == 201 ? 200 : 404);
    }
  }

  private static void assertAnswers(List<Future<List<Integer>>> uploads, List<Integer> allowed)
      throws Exception {
    for (Future<List<Integer>> upload : uploads) {
      List<Integer> statuses = upload.get(60, TimeUnit.SECONDS);
      assertThat(statuses).hasSize(1);
      assertThat(statuses.getFirst()).isIn(allowed.toArray());
    }
  }
}
