package dev.dht.operator.scaling;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.contract.MembersFile;
import dev.dht.contract.MembersFile.Replication;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.NoArgsConstructor;
import lombok.Setter;

/**
 * The membership the operator publishes to the nodes, and where a change of it stands: kept in the
 * DhtCluster's status, so a change survives an operator restart. Members are the ordinals {@code
 * 0..members-1}; during a change to {@code target} members, the others join or leave. The default
 * ack/from of requests that name none belong to it too: a change of them moves keys between replica
 * sets as a change of size does, so it takes the same steps (with {@code members == target}). So do
 * the members' zones, which place a key's replicas: a change of them (a node of a member labelled
 * with another zone, or for the first time) moves keys too.
 */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@Getter
@Setter
@EqualsAndHashCode
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor
public class Membership {
  /**
   * Where a change stands; each step's membership file is observed by every node before the next.
   */
  public enum Step {
    /** No change. */
    STABLE,
    /** Growing: the new pods start (unlisted, they wait) until they are Ready. */
    STARTING,
    /**
     * The new members joining or the old ones leaving, or the next default ack/from announced:
     * writes go to both rings.
     */
    JOINING,
    /** The members of the next ring pull the keys they will own. */
    STREAMING,
    /** Reads switch to the next ring. */
    READING_NEXT,
    /** The final membership, until every member observed it (leaving pods still run). */
    FINAL,
    /** Leaving pods are gone; each member drops what it no longer owns. */
    CLEANING_UP
  }

  @JsonPropertyDescription("Epoch of the membership file published to the nodes.")
  private long epoch;

  @JsonPropertyDescription("Members (ordinals 0..members-1) that own keys before the change.")
  private int members;

  @JsonPropertyDescription("Members after the change in progress; equal to members when stable.")
  private int target;

  @JsonPropertyDescription("Where the change in progress stands.")
  @Builder.Default
  private Step step = Step.STABLE;

  @JsonPropertyDescription(
      "Default ack in force (of requests that name none) before the change in progress; 0 in a"
          + " status written by an older operator, which gave the nodes the wanted one at once:"
          + " that one is then taken as in force.")
  private int ack;

  @JsonPropertyDescription("Default from in force before the change in progress (see ack).")
  private int from;

  @JsonPropertyDescription(
      "Default ack after the change in progress; equal to ack when stable (0: see ack).")
  private int targetAck;

  @JsonPropertyDescription(
      "Default from after the change in progress; equal to from when stable (0: see ack).")
  private int targetFrom;

  @JsonPropertyDescription(
      "Ordinals among those a shrink removes that are gone for good (annotation dht.dev/lost):"
          + " published as lost, nothing waits for them, their keys come from the other replicas.")
  @Builder.Default
  private List<Integer> lost = List.of();

  @JsonPropertyDescription(
      "Zone of each member (by ordinal) before the change in progress: the value of the label"
          + " spec.topology.zoneKey on its pod's Kubernetes node, \"\" for none. Empty when no"
          + " member has a zone. The nodes put a key's replicas in as many distinct zones as there"
          + " are.")
  @Builder.Default
  private List<String> zones = List.of();

  @JsonPropertyDescription(
      "Zone of each member after the change in progress; equal to zones when stable.")
  @Builder.Default
  private List<String> targetZones = List.of();

  /** {@code members} members at {@code epoch} with the default ack/from {@code replication}. */
  public static Membership stable(long epoch, int members, Replication replication) {
    return stable(epoch, members, replication, List.of());
  }

  /** As above, the members in {@code zones} (by ordinal, "" for none). */
  public static Membership stable(
      long epoch, int members, Replication replication, List<String> zones) {
    List<String> known = Zones.kept(zones, members);
    return new Membership(
        epoch,
        members,
        members,
        Step.STABLE,
        replication.ack(),
        replication.from(),
        replication.ack(),
        replication.from(),
        List.of(),
        known,
        known);
  }

  /** The default ack/from in force before the change (null in a status of an older operator). */
  @JsonIgnore
  public Replication replication() {
    return ack == 0 ? null : new Replication(ack, from);
  }

  /** The default ack/from after the change (null in a status of an older operator). */
  @JsonIgnore
  public Replication targetReplication() {
    return targetAck == 0 ? null : new Replication(targetAck, targetFrom);
  }

  /**
   * This membership with {@code wanted} where it records no ack/from: a status written before they
   * were kept here. Those nodes were given the wanted ones at once, so no change starts.
   */
  public Membership orReplication(Replication wanted) {
    var known = toBuilder();
    if (replication() == null) {
      known.ack(wanted.ack()).from(wanted.from());
    }
    if (targetReplication() == null) {
      known.targetAck(wanted.ack()).targetFrom(wanted.from());
    }
    return known.build();
  }

  /** Whether the change in progress (or starting) is one of the default ack/from. */
  @JsonIgnore
  public boolean changesReplication() {
    return ack != targetAck || from != targetFrom;
  }

  /** The zone of member {@code ordinal} before the change in progress; null for none. */
  public String zone(int ordinal) {
    return Zones.of(zones, ordinal);
  }

  /** The zone of member {@code ordinal} after the change in progress; null for none. */
  public String targetZone(int ordinal) {
    return Zones.of(targetZones, ordinal);
  }

  /**
   * Whether the change in progress (or starting) is one of the members' zones only (not one undone,
   * which has the same members, ack/from and zones before and after).
   */
  @JsonIgnore
  public boolean changesZonesOnly() {
    return members == target
        && !changesReplication()
        && !Zones.kept(zones, members).equals(Zones.kept(targetZones, target));
  }

  /**
   * What the change in progress is: "a change of the default ack/from", "a change of the members'
   * zones" or "a change of size (3 -> 5)".
   */
  public String change() {
    if (changesReplication()) {
      return "a change of the default ack/from";
    }
    return changesZonesOnly()
        ? "a change of the members' zones"
        : "a change of size (" + members + " -> " + target + ")";
  }

  /**
   * The default ack/from the published file gives the current ring, which the nodes serve once they
   * observed it: the target's from the final membership on.
   */
  @JsonIgnore
  public Replication published() {
    return step == Step.FINAL || step == Step.CLEANING_UP ? targetReplication() : replication();
  }

  /**
   * Of the replication in force and the target one, the one that tolerates fewer replicas down
   * ({@code from - ack}): during a change, requests meet both rings, so neither may lose more.
   */
  @JsonIgnore
  public Replication strictest() {
    var now = replication();
    var next = targetReplication();
    return next.from() - next.ack() < now.from() - now.ack() ? next : now;
  }

  /**
   * Pods that must run: every member, old and new, until every member observed a shrink's final
   * membership (a node still in the transition writes to the leaving ones too).
   */
  @JsonIgnore
  public int pods() {
    return step == Step.CLEANING_UP ? target : Math.max(members, target);
  }

  /**
   * The nodes that must observe this step's epoch (or act) before the next step: ordinals 0..n-1.
   */
  @JsonIgnore
  public int nodes() {
    return switch (step) {
      case STABLE, STARTING -> members;
      case FINAL, CLEANING_UP -> target;
      default -> Math.max(members, target);
    };
  }

  /**
   * The members file of this step: the epoch, the default ack/from of the current ring (and of the
   * next one while they change), the read ring, and each member URL with its state.
   */
  public String file(List<String> urlsByOrdinal) {
    boolean changing = step == Step.JOINING || step == Step.STREAMING || step == Step.READING_NEXT;
    var listed = new ArrayList<MembersFile.Member>();
    boolean targetRing = step == Step.FINAL || step == Step.CLEANING_UP;
    for (int i = 0; i < nodes(); i++) {
      MembersFile.State state;
      if (changing && i >= members) {
        state = MembersFile.State.JOINING;
      } else if (changing && i >= target) {
        state = lost.contains(i) ? MembersFile.State.LOST : MembersFile.State.LEAVING;
      } else {
        state = MembersFile.State.NORMAL;
      }
      String zone = Zones.of(targetRing || i >= members ? targetZones : zones, i);
      String nextZone = null;
      if (changing && i < target) {
        nextZone = Objects.requireNonNullElse(Zones.of(targetZones, i), MembersFile.NO_ZONE);
      }
      listed.add(new MembersFile.Member(urlsByOrdinal.get(i), state, zone, nextZone));
    }
    Replication next = changing && changesReplication() ? targetReplication() : null;
    return new MembersFile(epoch, published(), next, step == Step.READING_NEXT, listed).write();
  }

  @Override
  public String toString() {
    return step
        + " epoch "
        + epoch
        + " "
        + members
        + (target != members ? " -> " + target : "")
        + (replication() == null ? "" : " ack/from " + replication())
        + (changesReplication() ? " -> " + targetReplication() : "")
        + (Zones.kept(zones, members).isEmpty() ? "" : " zones " + zones)
        + (Zones.kept(targetZones, target).equals(Zones.kept(zones, members))
            ? ""
            : " -> " + targetZones);
  }
}
