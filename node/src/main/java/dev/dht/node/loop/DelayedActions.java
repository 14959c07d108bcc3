package dev.dht.node.loop;

import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Actions to run a fixed delay after they were scheduled, on one event loop, with at most one
 * Vert.x timer armed at a time. A timer per request would cost a timer object, a map entry and a
 * slot in Netty's scheduled-task heap, set and cancelled on every request; since every delay here
 * is the same, actions fall due in the order they were scheduled and a FIFO queue is all the
 * ordering needed. A cancelled action stays queued, without its references, until its time.
 * Confined to the event loop it is used from.
 */
public final class DelayedActions {
  private static final org.slf4j.Logger log =
      org.slf4j.LoggerFactory.getLogger(DelayedActions.class);

  /** A scheduled action; cancelling it drops the action and whatever it refers to. */
  public static final class Scheduled {
    private final long dueNanos;
    private Runnable action;

    private Scheduled(long dueNanos, Runnable action) {
      this.dueNanos = dueNanos;
      this.action = action;
    }

    public void cancel() {
      action = null;
    }
  }

  private final Vertx vertx;
  private final LongSupplier clock;
  private final long delayMs;
  private final long delayNanos;
  private final long resolutionMs;
  private final ArrayDeque<Scheduled> queue = new ArrayDeque<>();
  private boolean armed;

  /**
   * Runs each action {@code delayMs} after it was scheduled, up to {@code resolutionMs} late: the
   * timer never fires more often than that.
   */
  public DelayedActions(Vertx vertx, long delayMs, long resolutionMs, LongSupplier clock) {
    this.vertx = vertx;
    this.clock = clock;
    this.delayMs = delayMs;
    this.delayNanos = TimeUnit.MILLISECONDS.toNanos(delayMs);
    this.resolutionMs = resolutionMs;
  }

  public long delayMs() {
    return delayMs;
  }

  public Scheduled schedule(Runnable action) {
    Scheduled scheduled = new Scheduled(clock.getAsLong() + delayNanos, action);
    queue.add(scheduled);
    if (!armed) {
      arm(delayNanos);
    }
    return scheduled;
  }

  private void arm(long nanos) {
    armed = true;
    long ms = Math.max(resolutionMs, TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
    vertx.setTimer(ms, id -> fire());
  }

  private void fire() {
    armed = false;
    long now = clock.getAsLong();
    Scheduled head;
    while ((head = queue.peek()) != null && head.dueNanos <= now) {
      queue.poll();
      Runnable action = head.action;
      head.action = null;
      if (action != null) {
        try {
          action.run();
        } catch (RuntimeException e) { // one failing action must not stop the others
          log.error("a delayed action failed", e);
        }
      }
    }
    if (head != null) {
      arm(head.dueNanos - now);
    }
  }
}
