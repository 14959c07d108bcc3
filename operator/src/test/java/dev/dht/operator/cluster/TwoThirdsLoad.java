package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A writer and a reader at 2/3 through local nodes 0..2 by turns, over the keys {@code
 * <prefix>-0..keys-1} (each written at 3/3 first), until closed. It counts acknowledged writes,
 * reads that answered, reads of an acknowledged key that found nothing, and reads older than an
 * acknowledged write: a change under this load must leave the last two at 0.
 */
final class TwoThirdsLoad implements AutoCloseable {
  final AtomicLong writes = new AtomicLong();
  final AtomicLong reads = new AtomicLong();
  final AtomicLong notFound = new AtomicLong();
  final AtomicLong older = new AtomicLong();

  private final Map<String, Long> acked = new ConcurrentHashMap<>();
  private final AtomicBoolean loading = new AtomicBoolean(true);
  private final LocalNodes nodes;
  private final String prefix;
  private final int keys;
  private final Thread writer;
  private final Thread reader;

  TwoThirdsLoad(LocalNodes nodes, String prefix, int keys) {
    this.nodes = nodes;
    this.prefix = prefix;
    this.keys = keys;
    for (int k = 0; k < keys; k++) {
      assertThat(nodes.put(k % 3, prefix + "-" + k, 0, 3)).isEqualTo(201);
      acked.put(prefix + "-" + k, 0L);
    }
    writer = Thread.ofPlatform().start(this::write);
    reader = Thread.ofPlatform().start(this::read);
  }

  private void write() {
    for (long v = 1; loading.get(); v++) {
      String key = prefix + "-" + ThreadLocalRandom.current().nextInt(keys);
      if (nodes.put((int) (v % 3), key, v, 2) == 201) {
        acked.merge(key, v, Math::max);
        writes.incrementAndGet();
      }
    }
  }

  private void read() {
    for (int n = 0; loading.get(); n++) {
      String key = prefix + "-" + ThreadLocalRandom.current().nextInt(keys);
      long atLeast = acked.get(key);
      HttpResponse<String> got = nodes.get(n % 3, key, 2);
      if (got == null) {
        continue;
      }
      if (got.statusCode() == 404) {
        notFound.incrementAndGet();
      } else if (got.statusCode() == 200) {
        reads.incrementAndGet();
        if (Long.parseLong(got.body()) < atLeast) {
          older.incrementAndGet();
        }
      }
    }
  }

  /** Stops the writer and the reader, and waits for them. */
  @Override
  public void close() throws InterruptedException {
    loading.set(false);
    writer.join(10_000);
    reader.join(10_000);
  }
}
