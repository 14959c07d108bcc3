package dev.dht.app.launch;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The heap a node's JVM gets when whoever started it chose none: fixed from the start, so that G1
 * cannot shrink it to the little a node's live objects need, where its young pauses took several
 * times longer (docs/design/startup.md). Any heap option of the user's own (-Xmx, -Xms,
 * -XX:MaxRAMPercentage, ...) turns this off. Pure.
 */
public final class HeapDefaults {
  /**
   * The JVM flags that size the heap: set by anyone but the JVM's ergonomics, they are a choice.
   */
  public static final Set<String> HEAP_FLAGS =
      Set.of(
          "MaxHeapSize",
          "InitialHeapSize",
          "MinHeapSize",
          "MaxRAM",
          "MaxRAMPercentage",
          "InitialRAMPercentage",
          "MinRAMPercentage",
          "MaxRAMFraction",
          "InitialRAMFraction",
          "MinRAMFraction");

  static final long MIN_HEAP_BYTES = 256L << 20;
  static final long MAX_HEAP_BYTES = 1L << 30;

  private HeapDefaults() {}

  /**
   * The flags to start the JVM again with; empty when {@code chosen} says one of {@link
   * #HEAP_FLAGS} was set. The heap is a quarter of {@code memoryBytes} (the container's limit, or
   * the machine's memory), within 256 MiB-1 GiB and never more than half of the memory: the rest is
   * RocksDB's block cache and memtables, which live outside the heap.
   */
  public static List<String> flags(Predicate<String> chosen, long memoryBytes) {
    if (HEAP_FLAGS.stream().anyMatch(chosen)) {
      return List.of();
    }
    long heap =
        Math.min(Math.clamp(memoryBytes / 4, MIN_HEAP_BYTES, MAX_HEAP_BYTES), memoryBytes / 2);
    long mib = Math.max(1, heap >> 20);
    return List.of(
        "-Xms" + mib + "m",
        "-Xmx" + mib + "m",
        "-XX:+AlwaysPreTouch",
        "-XX:+ExitOnOutOfMemoryError");
  }
}
