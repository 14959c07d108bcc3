package dev.dht.operator.replacing;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * A replacement of a node on a new, empty volume ({@value ReplacementPlan#ANNOTATION}), as the
 * status records it: kept there so that it survives an operator restart, and so that the old claim
 * and pod are known once their names stand for new ones.
 */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor
public class NodeReplacement {
  /** Where a replacement stands. */
  public enum Phase {
    /** The annotation names no pod that may be replaced; nothing is done until it is fixed. */
    Refused,
    /** A change of size or of the default ack/from is under way; the replacement starts after. */
    Waiting,
    /** The pod is evicted (then its claim deleted), or the eviction waits for the budget. */
    Evicting,
    /** The pod is being deleted; its old claim goes once it is gone. */
    Stopping,
    /** The StatefulSet recreates the pod and a new claim. */
    Recreating,
    /** The pod runs on the new claim and pulls its keys from its peers; not Ready until done. */
    Bootstrapping,
    /** The pod is Ready on the new claim; the annotation is being removed. */
    Done
  }

  @JsonPropertyDescription("The pod replaced, as dht.dev/replace names it.")
  private String pod;

  @JsonPropertyDescription(
      "Refused (the annotation names no pod that may be replaced), Waiting (for a change of"
          + " size or of the default ack/from to finish), Evicting, Stopping, Recreating,"
          + " Bootstrapping (on the new volume, not Ready until it pulled its keys from its peers)"
          + " or Done.")
  private Phase phase;

  @JsonPropertyDescription("What the replacement does or waits for, or why it is refused.")
  private String message;

  @JsonPropertyDescription("When the operator started it (RFC 3339).")
  private String startedAt;

  @JsonPropertyDescription("When the pod was Ready on its new volume (RFC 3339).")
  private String finishedAt;

  @JsonPropertyDescription(
      "UID of the claim data-<pod> when the replacement started (none if it was already gone):"
          + " the claim that must go.")
  private String oldClaimUid;

  @JsonPropertyDescription(
      "UID of the pod when the replacement started (none if it did not exist): the pod that must"
          + " go.")
  private String oldPodUid;

  /** Its old pod or claim may be or have been deleted: from the first eviction until done. */
  @JsonIgnore
  public boolean running() {
    return phase == Phase.Evicting
        || phase == Phase.Stopping
        || phase == Phase.Recreating
        || phase == Phase.Bootstrapping;
  }
}
