package dev.dht.operator.cluster;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.dht.operator.rolling.PodState;
import dev.dht.operator.scaling.NodeView;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * One node as last observed: its pod (Ready, revision, image) and what the node itself reports on
 * its admin endpoint (membership epoch, defaults it serves, hints, keys, streaming progress).
 * Numbers are -1 where the node did not answer.
 */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class ObservedNode {
  @JsonPropertyDescription("Pod name.")
  private String name;

  @JsonPropertyDescription("Whether the pod is Ready.")
  private boolean ready;

  @JsonPropertyDescription(
      "Revision the pod was created from: a hash of its pod template and restart-needing"
          + " settings (the parts are in its dht.dev/revision annotation).")
  private String revision;

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
  @Builder.Default
  private List<String> secretFingerprints = new ArrayList<>();

  @JsonPropertyDescription(
      "Whether the node serves reads: serving; or, after it started on an empty data directory,"
          + " deciding (asking its peers whether any holds data) or bootstrapping (pulling its data"
          + " from them; not Ready meanwhile). Unset if it did not answer.")
  private String dataPhase;

  @JsonPropertyDescription("Epoch its last stream completed for; -1 if none.")
  private long streamedEpoch;

  @JsonPropertyDescription("Epoch its last cleanup completed for; -1 if none.")
  private long cleanedEpoch;

  public static ObservedNode of(PodState pod, String image, NodeView view) {
    ObservedNode n = new ObservedNode();
    n.name = pod.name();
    n.ready = view.podReady();
    n.revision = pod.revision() == null ? null : pod.revision().id();
    n.image = image;
    n.epoch = view.epoch();
    n.defaultAck = view.report().defaultAck();
    n.defaultFrom = view.report().defaultFrom();
    n.pendingHints = view.report().pendingHints();
    n.estimatedKeys = view.report().estimatedKeys();
    n.sstBytes = view.report().sstBytes();
    n.secretFingerprints = view.report().secretFingerprints();
    n.dataPhase = view.report().dataPhase();
    n.streamedEpoch = view.streamedEpoch();
    n.cleanedEpoch = view.cleanedEpoch();
    return n;
  }
}
