package dev.dht.node.http;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Bounds the work of one kind of traffic (clients, or peers) that a node has accepted and not yet
 * answered: requests in flight, and the bytes of their bodies held in memory. Past either bound a
 * request is refused at once with 503 instead of queueing, so overload never grows memory or
 * latency without limit. Thread-safe: every event loop of the node shares one instance per kind.
 */
public final class Admission {
  private final int maxInflight;
  private final long maxBodyBytes;
  private final AtomicInteger inflight = new AtomicInteger();
  private final AtomicLong bodyBytes = new AtomicLong();

  public Admission(int maxInflight, long maxBodyBytes) {
    this.maxInflight = maxInflight;
    this.maxBodyBytes = maxBodyBytes;
  }

  public boolean tryAcquire() {
    if (inflight.incrementAndGet() > maxInflight) {
      inflight.decrementAndGet();
      return false;
    }
    return true;
  }

  public void release() {
    inflight.decrementAndGet();
  }

  /** Reserves {@code bytes} of body memory; false (nothing reserved) when past the budget. */
  public boolean tryReserveBytes(long bytes) {
    if (bodyBytes.addAndGet(bytes) > maxBodyBytes) {
      bodyBytes.addAndGet(-bytes);
      return false;
    }
    return true;
  }

  public void releaseBytes(long bytes) {
    bodyBytes.addAndGet(-bytes);
  }

  public int inflight() {
    return inflight.get();
  }

  public long bodyBytes() {
    return bodyBytes.get();
  }
}
