package dev.dht.node.bootstrap;

import dev.dht.node.cluster.Topology;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Whether this node's replica may answer reads. A node that starts on an empty data directory (a
 * lost or new volume) in a cluster whose peers hold data would answer "no such key" for keys it
 * never received, and its answer would count toward a read quorum: with {@code ack + ack > from}
 * the read could then miss an acknowledged write. So such a node first pulls what it owns from
 * every peer ({@link Bootstrapper}); meanwhile it stores writes but its reads fail, so that they
 * count against the quorum instead of for it. Thread-safe: phases are written by the bootstrapper
 * and read by every event loop.
 */
public final class DataState {
  /** Where the node is: it serves reads only in {@link #SERVING}. */
  public enum Phase {
    /** Its data is complete: it started on its own data, or bootstrapping ended. */
    SERVING,
    /**
     * Started on data that may be stale (another member's, or its own from before a change of
     * membership): asking its peers how far they purged tombstones. No reads and no writes, since
     * the data may be dropped.
     */
    CHECKING,
    /** Started empty: asking its peers whether any holds data. */
    DECIDING,
    /**
     * Started empty (or on another member's data) in a cluster that holds data: pulling from every
     * peer.
     */
    BOOTSTRAPPING,
    /**
     * A new cluster's node loading its share of a backup: no reads, and no repair with its peers
     * (they restore too: their data is not complete yet, so a repair could purge a tombstone whose
     * older value a slower peer has yet to load). Writes are stored.
     */
    RESTORING;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** {@link #heldDataSinceMillis()} of a node that holds no data. */
  public static final long NO_DATA = -1;

  private final DataIdentity.Start start;
  private final boolean startedIncomplete;
  private final LongSupplier clock;
  private volatile Phase phase;
  private volatile long heldDataSinceMillis;

  private DataState(DataIdentity.Start start, boolean incomplete, Phase phase, LongSupplier clock) {
    this.start = start;
    this.startedIncomplete = incomplete;
    this.clock = clock;
    this.phase = phase;
    this.heldDataSinceMillis = start == DataIdentity.Start.EMPTY || incomplete ? NO_DATA : 0;
  }

  /**
   * The state at start: serving on its own data, checking on data that may be stale, deciding on an
   * empty directory or on its own data left {@code incomplete} (a bootstrap that did not end),
   * unless no peer could hold data it owns: a one-member cluster, or ({@link #mayMissData})
   * replication of one, a node not yet a member (members joining a cluster get theirs by
   * streaming).
   */
  public static DataState atStart(
      DataIdentity.Start start, boolean incomplete, Topology topology, LongSupplier clock) {
    Phase phase =
        switch (start) {
          case RETURNING, FOREIGN -> topology.size() > 1 ? Phase.CHECKING : Phase.SERVING;
          case CONTINUOUS, EMPTY ->
              (start == DataIdentity.Start.EMPTY || incomplete) && mayMissData(topology)
                  ? Phase.DECIDING
                  : Phase.SERVING;
        };
    return new DataState(start, incomplete, phase, clock);
  }

  /** Whether its data must be pulled before it serves, once it is known not to be stale. */
  boolean mustPull() {
    return start == DataIdentity.Start.FOREIGN || startedIncomplete;
  }

  /** Whether a node without data may miss data its peers hold. */
  static boolean mayMissData(Topology topology) {
    boolean owns = topology.state(topology.selfIndex()) != Topology.State.JOINING;
    return owns && topology.size() > 1 && topology.currentReplication().from() > 1;
  }

  /** The state of a node that restores a backup before it serves. */
  public static DataState restoring(DataIdentity.Start start, LongSupplier clock) {
    return new DataState(start, true, Phase.RESTORING, clock);
  }

  /** Whether it may repair with its peers (and its peers with it). */
  public boolean mayRepair() {
    return phase != Phase.CHECKING && phase != Phase.RESTORING;
  }

  /** What the node started on. */
  public DataIdentity.Start start() {
    return start;
  }

  /** Whether its replica stores writes: not while its data may yet be dropped. */
  public boolean acceptsWrites() {
    return phase != Phase.CHECKING;
  }

  public Phase phase() {
    return phase;
  }

  public boolean servesReads() {
    return phase == Phase.SERVING;
  }

  /**
   * Since when this node holds data (wall-clock millis): 0 if it started on its own data, else when
   * it stored its first write; {@link #NO_DATA} if it holds none. A peer that started empty after
   * that time may miss data; one that started before it received those writes itself (a new cluster
   * whose nodes start at about the same time).
   */
  public long heldDataSinceMillis() {
    return heldDataSinceMillis;
  }

  /** Called for every stored write (cheap: one volatile read once data is held). */
  public void stored() {
    if (heldDataSinceMillis == NO_DATA) {
      heldDataSinceMillis = clock.getAsLong();
    }
  }

  /** Its stale data was dropped: it holds none, and decides as a node that started empty. */
  void dropped(boolean mayMissData) {
    heldDataSinceMillis = NO_DATA;
    phase = mayMissData ? Phase.DECIDING : Phase.SERVING;
  }

  void bootstrapping() {
    phase = Phase.BOOTSTRAPPING;
  }

  void serving() {
    phase = Phase.SERVING;
  }

  /** Its restore is complete: it serves, and holds data as if it had always held it. */
  public void restored() {
    heldDataSinceMillis = 0;
    phase = Phase.SERVING;
  }
}
