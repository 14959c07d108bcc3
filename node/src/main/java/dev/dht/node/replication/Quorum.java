package dev.dht.node.replication;

import dev.dht.node.cluster.Replication;
import dev.dht.node.storage.Record;

/**
 * Counts replica answers for one request and decides when it is done: as soon as {@code ack}
 * replicas succeeded, or as soon as so many failed that {@code ack} successes are out of reach. For
 * reads it keeps the newest record seen. Pure and single-threaded: every answer arrives on the
 * coordinator's event loop.
 */
public final class Quorum {
  public enum Outcome {
    PENDING,
    REACHED,
    FAILED
  }

  private final int[] acks;
  private final int[] sizes;
  private final int[] successes;
  private final int[] failures;
  private Record newest;
  private Outcome outcome = Outcome.PENDING;

  public Quorum(int ack, int from) {
    this(new int[] {ack}, new int[] {from});
  }

  private Quorum(int[] acks, int[] sizes) {
    this.acks = acks;
    this.sizes = sizes;
    this.successes = new int[sizes.length];
    this.failures = new int[sizes.length];
  }

  /**
   * A joint quorum over two groups, the current ring's {@code from} replicas and the next ring's
   * (group bits 1 and 2; a replica may be in both): reached once each group's {@code ack} replicas
   * succeeded, failed once either group cannot reach its {@code ack}.
   */
  public static Quorum joint(Replication current, Replication next) {
    return new Quorum(
        new int[] {current.ack(), next.ack()}, new int[] {current.from(), next.from()});
  }

  /**
   * A successful replica answer; {@code record} is its version (null: the replica has none, or it
   * was a write). Returns the outcome if this answer decided it, PENDING otherwise (also after it
   * was already decided, so the decision is reported once).
   */
  public Outcome success(Record record) {
    return success(record, 1);
  }

  /** A successful answer of a replica in the groups of bit mask {@code groups}. */
  public Outcome success(Record record, int groups) {
    count(successes, groups);
    if (record != null && record.newerThan(newest)) {
      newest = record;
    }
    return decide();
  }

  public Outcome failure() {
    return failure(1);
  }

  public Outcome failure(int groups) {
    count(failures, groups);
    return decide();
  }

  private void count(int[] counts, int groups) {
    for (int g = 0; g < counts.length; g++) {
      if ((groups & (1 << g)) != 0) {
        counts[g]++;
      }
    }
  }

  /** The newest version among the successful answers so far; null when none had one. */
  public Record newest() {
    return newest;
  }

  public boolean decided() {
    return outcome != Outcome.PENDING;
  }

  /** Marks the quorum as failed (deadline passed); returns false if it was decided already. */
  public boolean expire() {
    if (decided()) {
      return false;
    }
    outcome = Outcome.FAILED;
    return true;
  }

  private Outcome decide() {
    if (decided()) {
      return Outcome.PENDING;
    }
    boolean reached = true;
    for (int g = 0; g < sizes.length; g++) {
      if (failures[g] > sizes[g] - acks[g]) {
        outcome = Outcome.FAILED;
        return outcome;
      }
      reached &= successes[g] >= acks[g];
    }
    if (reached) {
      outcome = Outcome.REACHED;
    }
    return outcome;
  }
}
