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
    /** Started empty: asking its peers whether any holds data. */
    DECIDING,
    /** Started empty in a cluster that holds data: pulling from every peer. */
    BOOTSTRAPPING;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** {@link #heldDataSinceMillis()} of a node that holds no data. */
  public static final long NO_DATA = -1;

  private final LongSupplier clock;
  private volatile Phase phase;
  private volatile long heldDataSinceMillis;

  private DataState(boolean startedWithData, Phase phase, LongSupplier clock) {
    this.clock = clock;
    this.phase = phase;
    this.heldDataSinceMillis = startedWithData ? 0 : NO_DATA;
  }

  /**
   * The state at start: serving if the node starts on its own data, or if no peer could hold data
   * it owns (a one-member cluster, replication of one, a node not yet a member: members joining a
   * cluster get theirs by streaming); else deciding.
   */
  public static DataState atStart(
      boolean startedWithData, Topology topology, int from, LongSupplier clock) {
    boolean owns = topology.state(topology.selfIndex()) != Topology.State.JOINING;
    boolean mayMissData = !startedWithData && owns && topology.size() > 1 && from > 1;
    return new DataState(startedWithData, mayMissData ? Phase.DECIDING : Phase.SERVING, clock);
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

  void bootstrapping() {
    phase = Phase.BOOTSTRAPPING;
  }

  void serving() {
    phase = Phase.SERVING;
  }
}
