package dev.dht.operator.scaling;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** One node's part in a change of size, as the status shows it. */
public class NodeProgress {
  @JsonPropertyDescription("Pod name.")
  private String name;

  @JsonPropertyDescription("Whether the pod is Ready.")
  private boolean ready;

  @JsonPropertyDescription("Membership epoch the node runs with; -1 if it did not answer.")
  private long epoch;

  @JsonPropertyDescription("Epoch its last stream completed for; -1 if none.")
  private long streamedEpoch;

  @JsonPropertyDescription("Epoch its last cleanup completed for; -1 if none.")
  private long cleanedEpoch;

  public NodeProgress() {}

  public static NodeProgress of(String name, NodeView view) {
    NodeProgress p = new NodeProgress();
    p.name = name;
    p.ready = view.podReady();
    p.epoch = view.epoch();
    p.streamedEpoch = view.streamedEpoch();
    p.cleanedEpoch = view.cleanedEpoch();
    return p;
  }

  public String getName() {
    return name;
  }

  public void setName(String name) {
    this.name = name;
  }

  public boolean isReady() {
    return ready;
  }

  public void setReady(boolean ready) {
    this.ready = ready;
  }

  public long getEpoch() {
    return epoch;
  }

  public void setEpoch(long epoch) {
    this.epoch = epoch;
  }

  public long getStreamedEpoch() {
    return streamedEpoch;
  }

  public void setStreamedEpoch(long streamedEpoch) {
    this.streamedEpoch = streamedEpoch;
  }

  public long getCleanedEpoch() {
    return cleanedEpoch;
  }

  public void setCleanedEpoch(long cleanedEpoch) {
    this.cleanedEpoch = cleanedEpoch;
  }
}
