package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * A DhtCluster's status.restore: which backup it was created from (resolved once, when the cluster
 * was created, and kept: the pods' files follow it), and how far its nodes got in loading it.
 */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class RestoreState {
  public static final String RESTORING = "Restoring";
  public static final String COMPLETED = "Completed";

  @JsonPropertyDescription("The backup's id in the store.")
  private String backup;

  @JsonPropertyDescription("The store it is read from, path resolved.")
  private ObjectStoreSpec objectStore;

  @JsonPropertyDescription(
      "Restoring (the nodes load their share; not Ready meanwhile) or Completed (every node"
          + " loaded its share; the restore file is gone from the nodes' ConfigMap).")
  private String phase;

  @JsonPropertyDescription(
      "The ordinals of the nodes that completed their share (a node restarted since no longer"
          + " reports it).")
  @Builder.Default
  private List<Integer> restored = new ArrayList<>();

  @JsonPropertyDescription("Nodes that restore (the cluster's first members).")
  private Integer nodes;

  @JsonPropertyDescription("Of the backed-up copies read so far, the keys the nodes kept.")
  private Long keysKept;

  @JsonPropertyDescription("Bytes the nodes downloaded so far.")
  private Long bytesDownloaded;

  @JsonPropertyDescription(
      "Why a node's restore failed, the last time it tried (it tries again every 30 s).")
  private String reason;

  @JsonPropertyDescription("When every node had completed (RFC 3339).")
  private String completedAt;

  /** Whether every node loaded its share. */
  public boolean completed() {
    return COMPLETED.equals(phase);
  }
}
