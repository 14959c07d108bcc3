package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.util.ArrayList;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** A {@link DhtBackup}'s progress and what it holds, like CloudNativePG's Backup status. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtBackupStatus {
  public static final String PENDING = "Pending";
  public static final String RUNNING = "Running";
  public static final String COMPLETED = "Completed";
  public static final String FAILED = "Failed";

  @JsonPropertyDescription(
      "Pending (waiting: reason says for what), Running, Completed or Failed (reason and"
          + " message say why). A failed backup is not retried: take another one.")
  private String phase;

  @JsonPropertyDescription("Why the backup is Pending or Failed, in one word.")
  private String reason;

  @JsonPropertyDescription("What happened, in words.")
  private String message;

  @JsonPropertyDescription("The backup's id in the store (backups/<id>/): its name.")
  private String backupId;

  @JsonPropertyDescription(
      "Where the backup is: the cluster's spec.backup.objectStore when it started, path"
          + " resolved. A restore from another namespace or Kubernetes cluster names it.")
  private ObjectStoreSpec objectStore;

  @JsonPropertyDescription("When the nodes were asked to start (RFC 3339).")
  private String startedAt;

  @JsonPropertyDescription("When the backup completed or failed (RFC 3339).")
  private String stoppedAt;

  @JsonPropertyDescription(
      "The backup's cut: the hybrid-clock timestamp before which every acknowledged write is in"
          + " it (the earliest node's), and the same as a time (RFC 3339).")
  private Long cut;

  @JsonPropertyDescription("The cut as a time (RFC 3339).")
  private String cutTime;

  @JsonPropertyDescription("The membership epoch the nodes' checkpoints were taken in.")
  private Long epoch;

  @JsonPropertyDescription("Files the backup lists (every node's checkpoint).")
  private Integer files;

  @JsonPropertyDescription("Bytes the backup lists: what a restore downloads.")
  private Long bytes;

  @JsonPropertyDescription("Files uploaded by this backup (the rest were in the store already).")
  private Integer filesUploaded;

  @JsonPropertyDescription("Bytes uploaded by this backup.")
  private Long bytesUploaded;

  @JsonPropertyDescription("Files reused from earlier backups.")
  private Integer filesReused;

  @JsonPropertyDescription("Bytes reused from earlier backups.")
  private Long bytesReused;

  @JsonPropertyDescription(
      "The verification of a completed backup that spec.verify asks for; it never changes the"
          + " phase.")
  private BackupVerification verification;

  @JsonPropertyDescription("Each node's part, by pod ordinal.")
  @Builder.Default
  private List<NodePart> nodes = new ArrayList<>();

  /** One node's part of the backup, as it reports it. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @Data
  @Builder(toBuilder = true)
  @NoArgsConstructor
  @AllArgsConstructor(access = AccessLevel.PRIVATE)
  public static class NodePart {
    @JsonPropertyDescription("The pod's ordinal.")
    private Integer ordinal;

    @JsonPropertyDescription("running, completed or failed.")
    private String phase;

    @JsonPropertyDescription("Files of its checkpoint.")
    private Integer filesTotal;

    @JsonPropertyDescription("Files it uploaded so far.")
    private Integer filesUploaded;

    @JsonPropertyDescription("Files the store held already.")
    private Integer filesReused;

    @JsonPropertyDescription("Bytes it uploaded so far.")
    private Long bytesUploaded;

    @JsonPropertyDescription("Bytes the store held already.")
    private Long bytesReused;

    @JsonPropertyDescription("Why its part failed.")
    private String reason;

    @JsonPropertyDescription(
        "Since when the node has not answered (RFC 3339); unset while it answers. A node that"
            + " does not answer for 2 minutes fails the backup.")
    private String unreachableSince;
  }
}
