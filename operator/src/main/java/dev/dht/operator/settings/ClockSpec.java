package dev.dht.operator.settings;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** spec.clock: how far the nodes' clocks may drift apart. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class ClockSpec {
  @Min(1)
  @Max(86_400_000)
  @JsonPropertyDescription(
      "Largest clock offset between nodes, in milliseconds, 1 to 86400000 (a day): a write stamped further"
          + " ahead of a node's clock is refused, none is stamped further ahead, and a node out by"
          + " more from most of its peers fences itself. Default: 500. Sets --max-clock-offset-ms;"
          + " a change restarts the nodes one at a time.")
  private Long maxOffsetMs;
}
