package dev.dht.loadgen.engine;

import java.util.PriorityQueue;
import java.util.function.LongSupplier;

/** A single-threaded discrete-event loop with a fake nanosecond clock, for pure simulations. */
final class FakeEventLoop implements TaskScheduler, LongSupplier {
  private record Event(long at, long seq, Runnable task) {}

  private final PriorityQueue<Event> queue =
      new PriorityQueue<>((a, b) ->
          a.at() != b.at() ? Long.compare(a.at(), b.at()) : Long.compare(a.seq(), b.seq()));
  private long now;
  private long seq;

  @Override
  public long getAsLong() {
    return now;
  }

  @Override
  public void schedule(long delayNanos, Runnable task) {
    at(now + Math.max(delayNanos, 0), task);
  }

  void at(long nanos, Runnable task) {
    queue.add(new Event(Math.max(nanos, now), seq++, task));
  }

  /** Runs events in time order until none is left. */
  void runAll() {
    while (!queue.isEmpty()) {
      Event e = queue.poll();
      now = e.at();
      e.task().run();
    }
  }
}
