package dev.dht.node.cluster;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The cluster as one node sees it: a versioned membership (an epoch, and a state per member), which
 * member is this node, and the placement rings over them. Immutable; a membership change builds a
 * new one.
 *
 * <p>In a transition, the members that own keys now (normal and leaving: the <em>current</em> ring)
 * differ from those that will own them (normal and joining: the <em>next</em> ring). Writes go to
 * both, and need {@code ack} answers from each (a joint quorum); reads use the current ring, or the
 * next one once the membership says so ({@code read-from next}, published after the next ring's new
 * members streamed their keys). So a transition is three epochs, each observed by every node before
 * the next is published: joint writes reading the current ring, joint writes reading the next ring,
 * the next ring alone. Nodes one epoch apart then always agree: a write acknowledged by either's
 * quorum is seen by either's quorum reads. Member indexes are positions in the whole member list,
 * whatever the state.
 *
 * <p>Each ring also has its replication defaults (the ack and from of requests that name neither).
 * A change of them is a transition too, with the same members in both rings: the next ring's
 * replicas of a key are then its next-from best members, filled by the same streams before reads
 * use them.
 */
public final class Topology {
  /** A member's part in placement. */
  public enum State {
    NORMAL,
    JOINING,
    LEAVING,
    /**
     * Leaving, and gone for good: it keeps its place in the current ring (so that no key moves
     * before it is streamed), but nothing waits for it: requests count it as failed at once, no
     * hint is kept for it, and streams and repairs take its keys from the other replicas.
     */
    LOST;

    boolean ownsNow() {
      return this != JOINING;
    }

    boolean ownsNext() {
      return this == NORMAL || this == JOINING;
    }
  }

  /** The replicas of a write: the union of both rings' replicas, and which ring each is in. */
  public record WriteSet(int[] replicas, int[] groups) {
    /** Group bits: 1 (in the current ring), 2 (in the next ring). */
    public static final int CURRENT = 1;

    public static final int NEXT = 2;
  }

  private final long epoch;
  private final List<String> members;
  private final List<State> states;

  /** Each member's zone (null: none), in member order, in the current ring and in the next. */
  private final List<String> zones;

  private final List<String> nextZones;

  private final int selfIndex;
  private final PlacementRing current;
  private final PlacementRing next;
  private final Replication.Defaults defaults;
  private final Replication.Defaults nextDefaults;
  private final boolean transition;
  private final boolean readNext;

  /** A ring over some members, with the way back from ring positions to member indexes. */
  private record PlacementRing(Ring ring, int[] memberIndex) {
    static PlacementRing over(
        List<String> members, List<State> states, List<String> zones, boolean now) {
      List<String> owners = new ArrayList<>();
      List<String> ownerZones = new ArrayList<>();
      List<Integer> indexes = new ArrayList<>();
      for (int i = 0; i < members.size(); i++) {
        if (now ? states.get(i).ownsNow() : states.get(i).ownsNext()) {
          owners.add(members.get(i));
          ownerZones.add(zones.get(i));
          indexes.add(i);
        }
      }
      return new PlacementRing(
          new Ring(owners, ownerZones), indexes.stream().mapToInt(Integer::intValue).toArray());
    }

    int[] replicas(byte[] key, int from) {
      int[] chosen = ring.replicas(key, from);
      for (int i = 0; i < chosen.length; i++) {
        chosen[i] = memberIndex[chosen[i]];
      }
      return chosen;
    }
  }

  private Topology(
      long epoch,
      List<String> members,
      List<State> states,
      List<String> zones,
      List<String> nextZones,
      Replication.Defaults defaults,
      Replication.Defaults nextDefaults,
      boolean readNext,
      int selfIndex) {
    this.defaults = defaults;
    this.nextDefaults = nextDefaults;
    this.readNext = readNext;
    this.epoch = epoch;
    this.members = members;
    this.states = states;
    this.zones = zones;
    this.nextZones = nextZones;
    this.selfIndex = selfIndex;
    this.current = PlacementRing.over(members, states, zones, true);
    this.next =
        states.stream().allMatch(s -> s == State.NORMAL) && nextZones.equals(zones)
            ? current
            : PlacementRing.over(members, states, nextZones, false);
    this.transition =
        next != current || !currentReplication().equals(nextReplication()); // once, not per request
  }

  /**
   * Builds a topology from member URLs, normalised and de-duplicated, all normal, epoch 0, default
   * replication; {@code self} must be one of them.
   */
  public static Topology of(List<String> memberUrls, String self) {
    return of(memberUrls, self, Replication.Defaults.UNCONFIGURED);
  }

  /** As above, with these replication defaults. */
  public static Topology of(List<String> memberUrls, String self, Replication.Defaults defaults) {
    Map<String, State> states = new LinkedHashMap<>();
    for (String url : memberUrls) {
      if (!url.isBlank()) {
        states.put(url, State.NORMAL);
      }
    }
    return of(0, states, defaults, defaults, false, self);
  }

  /** A topology of an epoch with default replication in both rings. */
  public static Topology of(
      long epoch, Map<String, State> memberStates, boolean readNext, String self) {
    var defaults = Replication.Defaults.UNCONFIGURED;
    return of(epoch, memberStates, defaults, defaults, readNext, self);
  }

  /** A topology of an epoch whose members have no zones. */
  public static Topology of(
      long epoch,
      Map<String, State> memberStates,
      Replication.Defaults defaults,
      Replication.Defaults nextDefaults,
      boolean readNext,
      String self) {
    return of(epoch, memberStates, Map.of(), Map.of(), defaults, nextDefaults, readNext, self);
  }

  /**
   * Builds a topology of an epoch from member URLs and their states, their zones in the current and
   * in the next ring (by URL; a member without one has none), with the replication defaults of the
   * current and the next ring, reading from the next ring if {@code readNext}; {@code self} is one
   * of the members.
   */
  public static Topology of(
      long epoch,
      Map<String, State> memberStates,
      Map<String, String> zonesByUrl,
      Map<String, String> nextZonesByUrl,
      Replication.Defaults defaults,
      Replication.Defaults nextDefaults,
      boolean readNext,
      String self) {
    Map<String, State> unique = new LinkedHashMap<>();
    memberStates.forEach((url, state) -> unique.putIfAbsent(normalize(url.strip()), state));
    List<String> members = List.copyOf(unique.keySet());
    List<State> states = List.copyOf(unique.values());
    List<String> zones = inMemberOrder(zonesByUrl, members);
    List<String> nextZones = inMemberOrder(nextZonesByUrl, members);
    if (!states.contains(State.NORMAL) && !states.contains(State.LEAVING)) {
      throw new IllegalArgumentException("the cluster has no live members that own keys");
    }
    if (!states.contains(State.NORMAL) && !states.contains(State.JOINING)) {
      throw new IllegalArgumentException("every member of the cluster is leaving");
    }
    int selfIndex = members.indexOf(normalize(self));
    if (selfIndex < 0) {
      throw new IllegalArgumentException(
          "--self " + self + " is not one of the cluster members " + members);
    }
    return new Topology(
        epoch, members, states, zones, nextZones, defaults, nextDefaults, readNext, selfIndex);
  }

  /** The zones of {@code members} (null for one without). */
  private static List<String> inMemberOrder(Map<String, String> zonesByUrl, List<String> members) {
    Map<String, String> zoneOf = new LinkedHashMap<>();
    zonesByUrl.forEach((url, zone) -> zoneOf.putIfAbsent(normalize(url.strip()), zone));
    return members.stream().map(zoneOf::get).toList(); // nulls kept
  }

  public long epoch() {
    return epoch;
  }

  public State state(int member) {
    return states.get(member);
  }

  /**
   * Whether a member may hold keys to pull or compare now: another member, neither joining (it
   * holds none yet) nor lost.
   */
  public boolean isLivePeer(int member) {
    State state = states.get(member);
    return member != selfIndex && state != State.JOINING && state != State.LOST;
  }

  /**
   * Whether the replicas that will hold keys differ from those that hold them now: other members,
   * or other replication defaults.
   */
  public boolean inTransition() {
    return transition;
  }

  /**
   * A request's ack and from in each ring, from its query values (null when absent) and the rings'
   * defaults; the same in both unless the request names neither and the defaults change.
   *
   * @throws Replication.InvalidException with the client-facing reason
   */
  public Replication.Rings resolve(String ackParam, String fromParam) {
    return new Replication.Rings(
        Replication.resolve(ackParam, fromParam, defaults, size()),
        Replication.resolve(ackParam, fromParam, nextDefaults, size()));
  }

  /** The ack and from of a request that names neither, in the ring that owns keys now. */
  public Replication currentReplication() {
    return Replication.resolve(null, null, defaults, size());
  }

  /** The ack and from of a request that names neither, in the next ring. */
  public Replication nextReplication() {
    return Replication.resolve(null, null, nextDefaults, size());
  }

  /** The ack and from of a request that names neither, in the ring that reads use. */
  public Replication readReplication() {
    return readNext ? nextReplication() : currentReplication();
  }

  /** Of a request's ack and from in each ring, those of the ring that reads use. */
  public Replication reads(Replication.Rings r) {
    return readNext ? r.next() : r.current();
  }

  /** The replicas of a write: the current ring's replicas and, in a transition, the next ring's. */
  public WriteSet writeReplicas(byte[] key, Replication.Rings r) {
    int[] now = current.replicas(key, r.current().from());
    if (!inTransition()) {
      int[] groups = new int[now.length];
      java.util.Arrays.fill(groups, WriteSet.CURRENT);
      return new WriteSet(now, groups);
    }
    int[] later = next.replicas(key, r.next().from());
    int[] union = java.util.Arrays.copyOf(now, now.length + later.length);
    int[] groups = new int[union.length];
    java.util.Arrays.fill(groups, 0, now.length, WriteSet.CURRENT);
    int size = now.length;
    for (int member : later) {
      int at = indexOf(union, size, member);
      if (at >= 0) {
        groups[at] |= WriteSet.NEXT;
      } else {
        union[size] = member;
        groups[size++] = WriteSet.NEXT;
      }
    }
    return new WriteSet(
        java.util.Arrays.copyOf(union, size), java.util.Arrays.copyOf(groups, size));
  }

  private static int indexOf(int[] values, int size, int value) {
    for (int i = 0; i < size; i++) {
      if (values[i] == value) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The {@code from} replicas of {@code key} in the next ring (the current one if no transition).
   */
  public int[] nextReplicas(byte[] key, int from) {
    return next.replicas(key, from);
  }

  /**
   * Lower-cases scheme and host and drops a trailing slash; rejects what is not http://host:port.
   */
  public static String normalize(String url) {
    URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
      throw new IllegalArgumentException("a member URL must look like http://host:port: " + url);
    }
    if (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) {
      throw new IllegalArgumentException("a member URL must not have a path: " + url);
    }
    return "http://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + uri.getPort();
  }

  public List<String> members() {
    return members;
  }

  /**
   * How many members can hold a key's copies on both sides of a transition: the largest valid
   * {@code from}, and the default one when none is configured.
   */
  public int size() {
    return Math.min(current.memberIndex().length, next.memberIndex().length);
  }

  public int selfIndex() {
    return selfIndex;
  }

  public String self() {
    return members.get(selfIndex);
  }

  public boolean isSelf(int index) {
    return index == selfIndex;
  }

  public String member(int index) {
    return members.get(index);
  }

  /** Each member's zone (null: none), in member order. */
  public List<String> zones() {
    return zones;
  }

  /** Indexes of the {@code from} replicas a read of {@code key} asks, best first. */
  public int[] replicas(byte[] key, int from) {
    return (readNext ? next : current).replicas(key, from);
  }

  /** Indexes of the {@code from} replicas of {@code key} among the members that own keys now. */
  public int[] currentReplicas(byte[] key, int from) {
    return current.replicas(key, from);
  }

  /**
   * Whether a request that names neither ack nor from resolves alike in the current ring and in the
   * next, each at its own size (not at {@link #size()}: three members growing to five with no
   * configured from go from 3 copies to 5).
   */
  public boolean replicationStays() {
    return Replication.resolve(null, null, defaults, current.memberIndex().length)
        .equals(Replication.resolve(null, null, nextDefaults, next.memberIndex().length));
  }

  /**
   * Whether this node owns every key now: it is in the current ring, and {@code from} is its size.
   */
  public boolean ownsEverythingNow(int from) {
    return states.get(selfIndex).ownsNow() && from >= current.memberIndex().length;
  }

  /**
   * Whether {@code member} will own every key: it is in the next ring, and {@code from} is its
   * size.
   */
  public boolean ownsEverythingNext(int member, int from) {
    return states.get(member).ownsNext() && from >= next.memberIndex().length;
  }

  /** Whether a member is gone for good. */
  public boolean anyLost() {
    return states.contains(State.LOST);
  }

  /** Whether reads use the next ring (the second step of a transition). */
  public boolean readsNext() {
    return readNext;
  }

  /** Same epoch, members, states, zones, replication defaults and read ring. */
  public boolean sameMembership(Topology other) {
    return epoch == other.epoch
        && readNext == other.readNext
        && defaults.equals(other.defaults)
        && nextDefaults.equals(other.nextDefaults)
        && members.equals(other.members)
        && states.equals(other.states)
        && zones.equals(other.zones)
        && nextZones.equals(other.nextZones);
  }

  @Override
  public String toString() {
    StringBuilder out = new StringBuilder("epoch ").append(epoch).append(" [");
    for (int i = 0; i < members.size(); i++) {
      out.append(i > 0 ? ", " : "").append(members.get(i));
      if (states.get(i) != State.NORMAL) {
        out.append(' ').append(states.get(i).name().toLowerCase(Locale.ROOT));
      }
      if (zones.get(i) != null) {
        out.append(" zone=").append(zones.get(i));
      }
      if (!Objects.equals(zones.get(i), nextZones.get(i))) {
        out.append(" next-zone=").append(Objects.requireNonNullElse(nextZones.get(i), "-"));
      }
    }
    out.append("] ack/from ").append(currentReplication());
    if (!nextReplication().equals(currentReplication())) {
      out.append(" -> ").append(nextReplication());
    }
    return out.append(readNext ? " reading from the next ring" : "")
        .append(" self=")
        .append(self())
        .toString();
  }
}
