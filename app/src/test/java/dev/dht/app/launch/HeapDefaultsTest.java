package dev.dht.app.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HeapDefaultsTest {
  private static final long GIB = 1L << 30;

  @Test
  void aQuarterOfTheMemoryFixedFromTheStartWithin256MiBAnd1GiB() {
    assertThat(HeapDefaults.flags(flag -> false, 24 * GIB))
        .containsExactly(
            "-Xms1024m", "-Xmx1024m", "-XX:+AlwaysPreTouch", "-XX:+ExitOnOutOfMemoryError");
    assertThat(HeapDefaults.flags(flag -> false, 2 * GIB)).startsWith("-Xms512m", "-Xmx512m");
    assertThat(HeapDefaults.flags(flag -> false, GIB)).startsWith("-Xms256m", "-Xmx256m");
  }

  @Test
  void neverMoreThanHalfOfASmallMemory() {
    assertThat(HeapDefaults.flags(flag -> false, 384L << 20)).startsWith("-Xms192m", "-Xmx192m");
  }

  @Test
  void anyHeapOptionOfTheUsersTurnsTheDefaultsOff() {
    for (String flag : HeapDefaults.HEAP_FLAGS) {
      assertThat(HeapDefaults.flags(flag::equals, 24 * GIB)).as(flag).isEmpty();
    }
    assertThat(HeapDefaults.flags(List.of("UseZGC", "AlwaysPreTouch")::contains, 24 * GIB))
        .isNotEmpty();
  }

  @Test
  void commandLinesSplitAtNul() {
    byte[] line = "java\0-jar\0dht.jar\0--self\0\0x y\0".getBytes();
    assertThat(Relaunch.arguments(line))
        .containsExactly("java", "-jar", "dht.jar", "--self", "", "x y");
  }
}
