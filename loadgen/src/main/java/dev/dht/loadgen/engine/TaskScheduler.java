package dev.dht.loadgen.engine;

/**
 * Runs a task on the caller's event loop after a delay (a fake in tests, Vert.x timers in runs).
 */
interface TaskScheduler {
  void schedule(long delayNanos, Runnable task);
}
