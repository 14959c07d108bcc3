package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.rolling.PodState;
import dev.dht.operator.scaling.NodeView;
import java.util.ArrayList;
import java.util.List;

/**
 * One node as last observed: its pod (Ready, config hash, image) and what the node itself reports
 * on its admin endpoint (membership epoch, defaults it serves, hints, keys, streaming progress).
 * Numbers are -1 where the node did not answer.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ObservedNode {
  @JsonPropertyDescription("Pod name.")
  private String name;

  @JsonPropertyDescription("Whether the pod is Ready.")
  private boolean ready;

  @JsonPropertyDescription("Config hash the pod was created with (restart-needing settings).")
  private String configHash;

  @JsonPropertyDescription("Image the node container runs, as the kubelet reports it.")
  private String image;

  @JsonPropertyDescription("Membership epoch the node runs with; -1 if it did not answer.")
  private long epoch;

  @JsonPropertyDescription("Default ack the node serves; -1 if it did not answer.")
  private int defaultAck;

  @JsonPropertyDescription("Default from the node serves; -1 if it did not answer.")
  private int defaultFrom;

  @JsonPropertyDescription("Hints the node holds for other nodes (writes they missed).")
  private long pendingHints;

  @JsonPropertyDescription("RocksDB's estimate of the keys the node holds.")
  private long estimatedKeys;

  @JsonPropertyDescription("Bytes of the node's SST files.")
  private long sstBytes;

  @JsonPropertyDescription(
      "Fingerprints (SHA-256, 12 hex digits) of the cluster secret the node sends, then of the"
          + " one it also accepts during a rotation.")
  private List<String> secretFingerprints = new ArrayList<>();

  @JsonPropertyDescription("Epoch its last stream completed for; -1 if none.")
  private long streamedEpoch;

  @JsonPropertyDescription("Epoch its last cleanup completed for; -1 if none.")
  private long cleanedEpoch;

  public ObservedNode() {}

  public static ObservedNode of(PodState pod, String image, NodeView view) {
    ObservedNode n = new ObservedNode();
    n.name = pod.name();
    n.ready = view.podReady();
    n.configHash = pod.configHash();
    n.image = image;
    n.epoch = view.epoch();
    n.defaultAck = view.report().defaultAck();
    n.defaultFrom = view.report().defaultFrom();
    n.pendingHints = view.report().pendingHints();
    n.estimatedKeys = view.report().estimatedKeys();
    n.sstBytes = view.report().sstBytes();
    n.secretFingerprints = view.report().secretFingerprints();
    n.streamedEpoch = view.streamedEpoch();
    n.cleanedEpoch = view.cleanedEpoch();
    return n;
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

  public String getConfigHash() {
    return configHash;
  }

  public void setConfigHash(String configHash) {
    this.configHash = configHash;
  }

  public String getImage() {
    return image;
  }

  public void setImage(String image) {
    this.image = image;
  }

  public long getEpoch() {
    return epoch;
  }

  public void setEpoch(long epoch) {
    this.epoch = epoch;
  }

  public int getDefaultAck() {
    return defaultAck;
  }

  public void setDefaultAck(int defaultAck) {
    this.defaultAck = defaultAck;
  }

  public int getDefaultFrom() {
    return defaultFrom;
  }

  public void setDefaultFrom(int defaultFrom) {
    this.defaultFrom = defaultFrom;
  }

  public long getPendingHints() {
    return pendingHints;
  }

  public void setPendingHints(long pendingHints) {
    this.pendingHints = pendingHints;
  }

  public long getEstimatedKeys() {
    return estimatedKeys;
  }

  public void setEstimatedKeys(long estimatedKeys) {
    this.estimatedKeys = estimatedKeys;
  }

  public long getSstBytes() {
    return sstBytes;
  }

  public void setSstBytes(long sstBytes) {
    this.sstBytes = sstBytes;
  }

  public List<String> getSecretFingerprints() {
    return secretFingerprints;
  }

  public void setSecretFingerprints(List<String> secretFingerprints) {
    this.secretFingerprints = secretFingerprints;
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
