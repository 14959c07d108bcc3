package dev.dht.operator.settings;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * spec.maintenance: the nodes' anti-entropy repair, tombstone grace and hints. Unset fields keep
 * the node's defaults, which the rules below use too.
 */
@ValidationRule(
    value =
        "(has(self.tombstoneGraceSeconds) ? self.tombstoneGraceSeconds : 86400)"
            + " > (has(self.repairIntervalSeconds) ? self.repairIntervalSeconds : 3600)",
    message =
        "tombstoneGraceSeconds (default 86400) must be longer than repairIntervalSeconds (default"
            + " 3600): a replica that missed a delete gets its tombstone from a repair, before"
            + " the others purge it, or the deleted value comes back")
@ValidationRule(
    value =
        "(has(self.tombstoneGraceSeconds) ? self.tombstoneGraceSeconds : 86400)"
            + " > (has(self.hintWindowSeconds) ? self.hintWindowSeconds : 10800)",
    message =
        "tombstoneGraceSeconds (default 86400) must be longer than hintWindowSeconds (default"
            + " 10800): a hint replayed after its tombstone was purged would bring a deleted value"
            + " back")
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class MaintenanceSpec {
  /** Ten years: the longest period in seconds (the node counts in milliseconds). */
  static final double MAX_SECONDS = 315_360_000;

  @Min(1)
  @Max(MAX_SECONDS)
  @JsonPropertyDescription(
      "How often each node runs an anti-entropy repair with its peers, in seconds, at least 1 and"
          + " less than tombstoneGraceSeconds. Default: 3600. Sets --repair-interval-s; a change"
          + " restarts the nodes one at a time.")
  private Long repairIntervalSeconds;

  @Min(1)
  @JsonPropertyDescription(
      "Pace of what one repair or stream receives, in bytes per second, at least 1. Default:"
          + " 16777216 (16 MiB). Sets --repair-bytes-per-s; a change restarts the nodes one at a"
          + " time.")
  private Long repairBytesPerSecond;

  @Min(1)
  @Max(MAX_SECONDS)
  @JsonPropertyDescription(
      "How long a tombstone (a deleted key) lives at least, in seconds; it is purged only after"
          + " that and once a repair reached every replica. Longer than repairIntervalSeconds and"
          + " hintWindowSeconds. A replica away for longer must come back with an empty volume."
          + " Default: 86400 (1 day). Sets --tombstone-grace-s; a change restarts the nodes one"
          + " at a time.")
  private Long tombstoneGraceSeconds;

  @Min(0)
  @Max(MAX_SECONDS)
  @JsonPropertyDescription(
      "How long a hint (a write kept for a replica that was away) is kept for replay, in seconds;"
          + " older ones are dropped and repair covers them; 0: no hints. Shorter than"
          + " tombstoneGraceSeconds. Default: 10800 (3 h). Sets --hint-window-s; a change"
          + " restarts the nodes one at a time.")
  private Long hintWindowSeconds;

  @Min(1)
  @JsonPropertyDescription(
      "Hints each node keeps on disk at most, in bytes; beyond, new hints are dropped (counted)."
          + " Default: 1073741824 (1 GiB). Sets --max-hint-bytes; a change restarts the nodes one"
          + " at a time.")
  private Long maxHintBytes;

  @Min(1)
  @JsonPropertyDescription(
      "Pace of the replay of hints to one node, in bytes per second. Default: 8388608 (8 MiB)."
          + " Sets --hint-replay-bytes-per-s; a change restarts the nodes one at a time.")
  private Long hintReplayBytesPerSecond;
}
