package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;

/** Progress of a rolling restart: what is left, what is restarting, what it waits for. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class RollStatus {
  @JsonPropertyDescription("Pods still created with other settings than the current ones.")
  private List<String> outdated = new ArrayList<>();

  @JsonPropertyDescription(
      "The pod the operator restarted last, until it is Ready and caught up again.")
  private String restarting;

  @JsonPropertyDescription("What the roll does or waits for.")
  private String message;

  public RollStatus() {}

  public RollStatus(List<String> outdated, String restarting, String message) {
    this.outdated = outdated;
    this.restarting = restarting;
    this.message = message;
  }

  public List<String> getOutdated() {
    return outdated;
  }

  public void setOutdated(List<String> outdated) {
    this.outdated = outdated;
  }

  public String getRestarting() {
    return restarting;
  }

  public void setRestarting(String restarting) {
    this.restarting = restarting;
  }

  public String getMessage() {
    return message;
  }

  public void setMessage(String message) {
    this.message = message;
  }
}
