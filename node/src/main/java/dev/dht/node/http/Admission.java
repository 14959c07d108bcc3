package dev.dht.node.http;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the work a node has accepted and not yet answered. Past the bound a request is refused at
 * once with 503 instead of queueing, so overload never grows memory or latency without limit.
 */
public final class Admission {
  private final int maxInflight;
  private final AtomicInteger inflight = new AtomicInteger();

  public Admission(int maxInflight) {
    this.maxInflight = maxInflight;
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

  public int inflight() {
    return inflight.get();
  }
}
