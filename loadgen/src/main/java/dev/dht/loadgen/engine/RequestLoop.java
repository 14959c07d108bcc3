package dev.dht.loadgen.engine;

import java.util.function.LongSupplier;

/**
 * The wrk2 model for one connection: it owns every {@code stride}-th slot of the schedule starting
 * at {@code firstSlot}, sends each at its intended time (or as soon as the previous response is in,
 * when late) with one request in flight, and measures latency from the intended time, so a stall
 * shows up in every request it delays (coordinated omission corrected).
 *
 * <p>Timers may fire late by up to a tick; to keep that out of the latencies the loop arms them
 * {@code earlyNanos} before the intended time and measures from {@code min(intended, actual send)}:
 * the intended time when late, the actual send when early. Confined to one event loop.
 */
final class RequestLoop implements Transport.Callback {
  private final Schedule schedule;
  private final RunWindow window;
  private final int stride;
  private final RequestPlanner planner;
  private final Transport transport;
  private final TaskScheduler scheduler;
  private final LongSupplier clock;
  private final LatencyRecorder recorder;
  private final long earlyNanos;
  private final Runnable onDone;
  private final Runnable sendTask = this::send;
  private final Runnable advanceTask = this::advance;
  private boolean stopped;
  private boolean inFlight;

  private long slot;
  private long intendedNanos;
  private long sentNanos;
  private boolean put;
  private boolean sending;
  private boolean done;

  RequestLoop(
      Schedule schedule,
      RunWindow window,
      int firstSlot,
      int stride,
      RequestPlanner planner,
      Transport transport,
      TaskScheduler scheduler,
      LongSupplier clock,
      LatencyRecorder recorder,
      long earlyNanos,
      Runnable onDone) {
    this.schedule = schedule;
    this.window = window;
    this.slot = firstSlot;
    this.stride = stride;
    this.planner = planner;
    this.transport = transport;
    this.scheduler = scheduler;
    this.clock = clock;
    this.recorder = recorder;
    this.earlyNanos = earlyNanos;
    this.onDone = onDone;
  }

  void start() {
    advance();
  }

  boolean isDone() {
    return done;
  }

  /** Sends nothing more: the loop finishes once its request in flight, if any, completes. */
  void stop() {
    stopped = true;
    if (!inFlight) {
      finish();
    }
  }

  private void advance() {
    inFlight = false;
    long now = clock.getAsLong();
    if (stopped || slot >= window.maxSlots() || now >= window.sendUntilNanos()) {
      finish();
      return;
    }
    long due = schedule.intendedNanos(slot);
    if (due < now && due < window.measureFromNanos() && window.dropWarmupBacklog()) {
      // A late warm-up slot is skipped, not caught up: a cold start ends without a burst above the
      // rate, and the measurement starts from the schedule, not from a backlog.
      slot = firstSlotFrom(Math.min(now, window.measureFromNanos()));
      due = schedule.intendedNanos(slot);
    }
    if (due >= window.sendUntilNanos()) {
      finish();
      return;
    }
    intendedNanos = due;
    long wait = due - earlyNanos - now;
    if (wait > 0) {
      scheduler.schedule(wait, sendTask);
    } else {
      send();
    }
  }

  /** This connection's first slot due at or after {@code nanos} (its slots are slot + k*stride). */
  private long firstSlotFrom(long nanos) {
    long first = schedule.slotsDueBefore(nanos);
    return first <= slot ? slot : slot + (first - slot + stride - 1) / stride * stride;
  }

  private void send() {
    if (stopped) {
      finish();
      return;
    }
    inFlight = true;
    PlannedRequest request = planner.plan(slot);
    put = request.put();
    sentNanos = clock.getAsLong();
    recorder.sent();
    sending = true;
    transport.send(request, this);
    sending = false;
  }

  @Override
  public void onResponse(int status, long bodyBytes) {
    long now = clock.getAsLong();
    long from = Math.min(intendedNanos, sentNanos);
    recorder.response(
        window.thirdOf(intendedNanos), put, status, now - from, now - sentNanos, bodyBytes, now);
    next();
  }

  @Override
  public void onFailure(Transport.Failure failure) {
    long now = clock.getAsLong();
    recorder.failure(window.isMeasured(intendedNanos), failure, now);
    next();
  }

  private void next() {
    slot += stride;
    if (sending) {
      // A transport that failed synchronously: continue from the event loop, not recursively.
      scheduler.schedule(0, advanceTask);
    } else {
      advance();
    }
  }

  private void finish() {
    if (!done) {
      done = true;
      onDone.run();
    }
  }
}
