package dev.dht.operator.bounded;

import java.lang.management.ManagementFactory;

/** Bytes the JVM allocated on its heap: what a read cost, whichever threads did it. */
public final class Allocations {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private Allocations() {}

  /** By every thread so far, ended ones included. */
  public static long total() {
    return THREADS.getTotalThreadAllocatedBytes();
  }

  /** By the calling thread so far. */
  public static long ofThisThread() {
    return THREADS.getCurrentThreadAllocatedBytes();
  }
}
