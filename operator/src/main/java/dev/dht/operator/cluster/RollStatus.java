package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** Progress of a rolling restart: what is left, what is restarting, what it waits for. */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor
public class RollStatus {
  @JsonPropertyDescription("Pods still created with other settings than the current ones.")
  @Builder.Default
  private List<String> outdated = new ArrayList<>();

  @JsonPropertyDescription(
      "The pod the operator restarted last, until it is Ready and caught up again.")
  private String restarting;

  @JsonPropertyDescription("What the roll does or waits for.")
  private String message;
}
