package dev.dht.loadgen.engine;

import java.util.PriorityQueue;
import java.util.function.LongSupplier;

/**
 * Runs scheduled tasks from a periodic tick: one timer per event loop instead of one per request. A
 * Vert.x timer per request costs a timer object, a future, a slot in Netty's task heap and an
 * event-loop wake-up each; at tens of thousands of requests a second that was most of the
 * generator's CPU. The tick (about 1 ms) runs every task whose time has come, in time order. Not
 * thread-safe: confined to one event loop.
 */
final class TickScheduler implements TaskScheduler {
  private record Entry(long dueNanos, long seq, Runnable task) {}

  private final LongSupplier clock;
  private final PriorityQueue<Entry> queue =
      new PriorityQueue<>((a, b) ->
          a.dueNanos() != b.dueNanos()
              ? Long.compare(a.dueNanos(), b.dueNanos())
              : Long.compare(a.seq(), b.seq()));
  private long seq;

  TickScheduler(LongSupplier clock) {
    this.clock = clock;
  }

  @Override
  public void schedule(long delayNanos, Runnable task) {
    queue.add(new Entry(clock.getAsLong() + delayNanos, seq++, task));
  }

  /** Runs the tasks that are due, earliest first (a task scheduled now is due later). */
  void tick() {
    long now = clock.getAsLong();
    Entry head;
    while ((head = queue.peek()) != null && head.dueNanos() <= now) {
      queue.poll();
      head.task().run();
    }
  }

  int pending() {
    return queue.size();
  }
}
