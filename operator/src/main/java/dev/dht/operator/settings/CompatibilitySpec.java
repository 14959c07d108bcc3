package dev.dht.operator.settings;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * spec.compatibility: turns off newer node-to-node protocols, for a cluster that must run next to
 * nodes of an earlier version (or go back to one).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class CompatibilitySpec {
  @JsonPropertyDescription(
      "Whether nodes send replica batches to peers as frames on one long-lived connection each;"
          + " false: as HTTP requests only, as nodes before frames did (peers of either kind work"
          + " together). Default: true. Sets --peer-frames; a change restarts the nodes one at a"
          + " time.")
  private Boolean peerFrames;

  @JsonPropertyDescription(
      "Whether a change of membership moves keys as whole SST files; false: as digests and"
          + " entries, key by key, as nodes before files did (peers of either kind work together)."
          + " Default: true. Sets --stream-files; a change restarts the nodes one at a time.")
  private Boolean streamFiles;
}
