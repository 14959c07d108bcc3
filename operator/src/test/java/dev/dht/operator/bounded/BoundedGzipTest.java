package dev.dht.operator.bounded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class BoundedGzipTest {
  private static final int MIB = 1024 * 1024;

  private static byte[] gzip(byte[] content) throws IOException {
    var out = new ByteArrayOutputStream();
    try (var gz = new GZIPOutputStream(out)) {
      gz.write(content);
    }
    return out.toByteArray();
  }

  @Test
  void whatFitsTheCapComesBackWhole() throws IOException {
    byte[] content = "<html>flame</html>".repeat(1000).getBytes(StandardCharsets.UTF_8);
    assertThat(BoundedGzip.gunzip(gzip(content), content.length, "x")).isEqualTo(content);
  }

  @Test
  void oneByteMoreIsRefused() throws IOException {
    byte[] content = new byte[1000];
    assertThatThrownBy(() -> BoundedGzip.gunzip(gzip(content), 999, "the artifact"))
        .isInstanceOf(TooLargeException.class)
        .hasMessage(
            "the artifact (uncompressed) is larger than the 999 bytes the operator reads of it");
  }

  /**
   * A gigabyte of zeros is a megabyte of gzip: unpacking stops at the cap, having allocated about
   * the cap, not the gigabyte.
   */
  @Test
  void aGzipBombStopsAtTheCapWithoutAllocatingItsOutput() {
    byte[] bomb = GzipBombs.zeros(1024);
    assertThat(bomb.length).as("compressed").isLessThan(2 * MIB);

    long before = Allocations.ofThisThread();
    long started = System.nanoTime();
    assertThatThrownBy(() -> BoundedGzip.gunzip(bomb, 16 * MIB, "the artifact"))
        .isInstanceOf(TooLargeException.class)
        .hasMessageContaining("16 MiB");
    long allocated = Allocations.ofThisThread() - before;

    // the output buffer doubles up to the cap: at most about twice it, and far from 1 GiB
    assertThat(allocated).isLessThan(48L * MIB);
    assertThat(System.nanoTime() - started).isLessThan(5_000_000_000L);
  }
}
