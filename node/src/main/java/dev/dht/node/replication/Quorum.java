package dev.dht.node.replication;

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

  private final int ack;
  private final int from;
  private int successes;
  private int failures;
  private Record newest;
  private Outcome outcome = Outcome.PENDING;

  public Quorum(int ack, int from) {
    this.ack = ack;
    this.from = from;
  }

  /**
   * A successful replica answer; {@code record} is its version (null: the replica has none, or it
   * was a write). Returns the outcome if this answer decided it, PENDING otherwise (also after it
   * was already decided, so the decision is reported once).
   */
  public Outcome success(Record record) {
    successes++;
    if (record != null && record.newerThan(newest)) {
      newest = record;
    }
    return decide();
  }

  public Outcome failure() {
    failures++;
    return decide();
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
    if (successes >= ack) {
      outcome = Outcome.REACHED;
    } else if (failures > from - ack) {
      outcome = Outcome.FAILED;
    }
    return outcome;
  }
}
