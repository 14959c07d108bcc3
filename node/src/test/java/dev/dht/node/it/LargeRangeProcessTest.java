package dev.dht.node.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * API.md §4 "a range larger than the heap works": a node process with a 64 MiB heap holds ~300 MB
 * of values and streams all of them in one range response. The test counts the bytes as they arrive
 * (never holding more than one entry) and checks every entry; the node must still be alive and
 * serving afterwards.
 */
class LargeRangeProcessTest {
  private static final int ENTRIES = 3000;
  private static final int VALUE_BYTES = 100 * 1024;
  private static final int WRITERS = 4;

  @TempDir Path root;

  @Test
  void aRangeFiveTimesTheHeapStreamsCompletely() throws Exception {
    // a generous deadline: this test is about memory, and the writes share a loaded machine
    try (NodeProcess node =
        NodeProcess.start(
            root.resolve("node"), Ports.free(), "64m", "--request-timeout-ms", "10000")) {
      long expectedBytes = write(node);

      long[] entries = {0};
      AtomicLong bytes = new AtomicLong();
      int status =
          RawHttp.stream(
              node.port(),
              "/v0/entities?start=big-",
              (buffer, length) -> {
                String expectedKey = key((int) entries[0]);
                byte[] keyBytes = expectedKey.getBytes(StandardCharsets.US_ASCII);
                assertThat(length)
                    .as("entry %d length", entries[0])
                    .isEqualTo(keyBytes.length + 1 + VALUE_BYTES);
                assertThat(new String(buffer, 0, keyBytes.length, StandardCharsets.US_ASCII))
                    .isEqualTo(expectedKey);
                assertThat(buffer[keyBytes.length]).isEqualTo((byte) '\n');
                // every value starts with its own index, so entries cannot be mixed up
                assertThat(ByteBuffer.wrap(buffer, keyBytes.length + 1, 8).getLong())
                    .isEqualTo(entries[0]);
                entries[0]++;
                bytes.addAndGet(length);
              });

      assertThat(status).isEqualTo(200);
      assertThat(entries[0]).isEqualTo(ENTRIES);
      assertThat(bytes.get()).isEqualTo(expectedBytes).isGreaterThan(4L * 64 * 1024 * 1024);
      assertThat(node.alive()).as("the node survived the range; log:\n%s", node.log()).isTrue();
      assertThat(node.client().put("after-range", "v").status()).isEqualTo(201);
      assertThat(node.client().get(key(ENTRIES - 1)).body()).hasSize(VALUE_BYTES);
      assertThat(node.log()).doesNotContain("OutOfMemoryError");
    }
  }

  private static String key(int i) {
    return String.format("big-%05d", i);
  }

  /** Writes the entries directly to the node (ack=1, from=1); returns the range's byte count. */
  private static long write(NodeProcess node) throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
    try {
      Future<?>[] done = new Future<?>[WRITERS];
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        done[w] =
            writers.submit(() -> {
              byte[] value = new byte[VALUE_BYTES];
              new SplittableRandom(writer).nextBytes(value); // incompressible
              for (int i = writer; i < ENTRIES; i += WRITERS) {
                ByteBuffer.wrap(value).putLong(i);
                int status = node.client().put(key(i), value, 1, 1).status();
                if (status != 201) {
                  throw new AssertionError("PUT " + key(i) + " answered " + status);
                }
              }
              return null;
            });
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      writers.shutdownNow();
    }
    return (long) ENTRIES * (key(0).length() + 1 + VALUE_BYTES);
  }
}
