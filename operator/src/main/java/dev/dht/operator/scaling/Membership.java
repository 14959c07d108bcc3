package dev.dht.operator.scaling;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.contract.MembersFile;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.EqualsAndHashCode;
import lombok.Getter;
import lombok.NoArgsConstructor;
import lombok.Setter;

/**
 * The membership the operator publishes to the nodes, and where a change of it stands: kept in the
 * DhtCluster's status, so a change survives an operator restart. Members are the ordinals {@code
 * 0..members-1}; during a change to {@code target} members, the others join or leave.
 */
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
    /** The new members joining or the old ones leaving: writes go to both rings. */
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

  public static Membership stable(long epoch, int members) {
    return new Membership(epoch, members, members, Step.STABLE);
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
   * The members file of this step: the epoch, the read ring, and each member URL with its state.
   */
  public String file(java.util.List<String> urlsByOrdinal) {
    boolean changing = step == Step.JOINING || step == Step.STREAMING || step == Step.READING_NEXT;
    var listed = new java.util.ArrayList<MembersFile.Member>();
    for (int i = 0; i < nodes(); i++) {
      MembersFile.State state;
      if (changing && i >= members) {
        state = MembersFile.State.JOINING;
      } else if (changing && i >= target) {
        state = MembersFile.State.LEAVING;
      } else {
        state = MembersFile.State.NORMAL;
      }
      listed.add(new MembersFile.Member(urlsByOrdinal.get(i), state));
    }
    return new MembersFile(epoch, step == Step.READING_NEXT, listed).write();
  }

  @Override
  public String toString() {
    return step + " epoch " + epoch + " " + members + (target != members ? " -> " + target : "");
  }
}
