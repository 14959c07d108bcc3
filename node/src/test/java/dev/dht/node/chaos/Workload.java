package dev.dht.node.chaos;

import dev.dht.node.chaos.History.Kind;
import dev.dht.node.it.DhtClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Clients at 2/3 through random nodes, with the JDK's HTTP client: writers, each the only writer of
 * its keys (it writes each key's mutation number as the value, and deletes now and then), and a
 * reader of every key. Each paces itself (a few hundred ops a second in all) so that the nemesis,
 * not overload, is what is tested. Everything is recorded in a {@link History}.
 */
final class Workload implements AutoCloseable {
  private static final int WRITERS = 4;
  private static final int KEYS_PER_WRITER = 40;
  private static final Duration TIMEOUT = Duration.ofSeconds(3);
  private static final long PAUSE_MS = 8;

  private final List<Integer> ports;
  private final History history;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(2))
          .build();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();

  /** Clients of the nodes on {@code ports}. */
  Workload(List<Integer> ports, History history) {
    this.ports = List.copyOf(ports);
    this.history = history;
  }

  static List<String> keys() {
    List<String> keys = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      keys.addAll(keysOf(w));
    }
    return keys;
  }

  private static List<String> keysOf(int writer) {
    List<String> keys = new ArrayList<>();
    for (int k = 0; k < KEYS_PER_WRITER; k++) {
      keys.add("chaos-" + writer + "-" + k);
    }
    return keys;
  }

  void start() {
    for (int w = 0; w < WRITERS; w++) {
      List<String> mine = keysOf(w);
      threads.add(Thread.ofPlatform().name("chaos-writer-" + w).start(() -> write(mine)));
    }
    threads.add(Thread.ofPlatform().name("chaos-reader").start(this::read));
  }

  @Override
  public void close() throws InterruptedException {
    running.set(false);
    for (Thread t : threads) {
      t.join(TIMEOUT.toMillis() * 3);
    }
    http.close();
  }

  private void write(List<String> keys) {
    long[] next = new long[keys.size()];
    while (running.get()) {
      int k = ThreadLocalRandom.current().nextInt(keys.size());
      long seq = ++next[k];
      boolean delete = ThreadLocalRandom.current().nextInt(100) < 15;
      long start = System.nanoTime();
      int status =
          send(
              delete ? "DELETE" : "PUT",
              keys.get(k),
              delete ? BodyPublishers.noBody() : BodyPublishers.ofString(Long.toString(seq)));
      boolean ok = status == (delete ? 202 : 201);
      history.add(
          new History.Op(
              keys.get(k), delete ? Kind.DELETE : Kind.WRITE, seq, ok, start, System.nanoTime()));
      pause();
    }
  }

  private void read() {
    List<String> keys = keys();
    while (running.get()) {
      String key = keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
      long start = System.nanoTime();
      long[] seen = {History.ABSENT};
      int status = send("GET", key, BodyPublishers.noBody(), seen);
      history.add(
          new History.Op(
              key, Kind.READ, seen[0], status == 200 || status == 404, start, System.nanoTime()));
      pause();
    }
  }

  private int send(String method, String key, HttpRequest.BodyPublisher body) {
    return send(method, key, body, new long[1]);
  }

  /** The status (0 if the request failed); a 200's value number goes to {@code seen[0]}. */
  private int send(String method, String key, HttpRequest.BodyPublisher body, long[] seen) {
    int port = ports.get(ThreadLocalRandom.current().nextInt(ports.size()));
    URI uri = URI.create("http://127.0.0.1:" + port + DhtClient.entity(key, 2, 3));
    try {
      var response =
          http.send(
              HttpRequest.newBuilder(uri).timeout(TIMEOUT).method(method, body).build(),
              BodyHandlers.ofString());
      if (response.statusCode() == 200) {
        seen[0] = Long.parseLong(response.body());
      }
      return response.statusCode();
    } catch (java.io.IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  private static void pause() {
    try {
      Thread.sleep(PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
