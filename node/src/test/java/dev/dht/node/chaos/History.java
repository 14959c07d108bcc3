package dev.dht.node.chaos;

import java.util.ArrayList;
import java.util.List;

/**
 * What clients did and saw, for {@link HistoryCheck}: every write, delete and read, with when it
 * began and ended (nanoTime) and how it ended. Each key has one writer, which numbers its mutations
 * 1, 2, 3… (a write stores its number as the value), so the order of a key's mutations is known.
 * Thread-safe.
 */
final class History {
  /** What an op was. */
  enum Kind {
    WRITE,
    DELETE,
    READ
  }

  /** A read that found no value. */
  static final long ABSENT = 0;

  /**
   * One op: for a mutation, {@code seq} is its number and {@code ok} whether it was acknowledged;
   * for a read, {@code seq} is the number of the value it returned ({@link #ABSENT}: 404) and
   * {@code ok} whether it answered 200 or 404.
   */
  record Op(String key, Kind kind, long seq, boolean ok, long startNanos, long endNanos) {}

  private final List<Op> ops = new ArrayList<>();

  void add(Op op) {
    synchronized (ops) {
      ops.add(op);
    }
  }

  List<Op> ops() {
    synchronized (ops) {
      return List.copyOf(ops);
    }
  }
}
