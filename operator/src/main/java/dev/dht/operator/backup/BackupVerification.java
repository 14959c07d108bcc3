package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * A completed {@link DhtBackup}'s verification (spec.verify), as its status shows it: one node
 * downloads the backup into scratch space, checks every file's digest, and reads every member's
 * checkpoint to its end.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class BackupVerification {
  public static final String PENDING = "Pending";
  public static final String RUNNING = "Running";
  public static final String PASSED = "Passed";
  public static final String FAILED = "Failed";

  @JsonPropertyDescription(
      "Pending (waiting, or to be tried again: reason says why), Running, Passed (the backup"
          + " reads back as it was taken) or Failed (the backup is damaged: message says how).")
  private String phase;

  @JsonPropertyDescription(
      "Why the verification is Pending or Failed, in one word: ClusterNotFound, NoBackupStore,"
          + " StoreChanged, ClusterBusy, NodeBusy, NodeUnreachable, NodeRefused, NodeRestarted,"
          + " CheckError (the check could not finish: it says nothing of the backup), or"
          + " BackupDamaged.")
  private String reason;

  @JsonPropertyDescription("What happened, in words; the node's own reason when it has one.")
  private String message;

  @JsonPropertyDescription("The ordinal of the pod that checks, or checked, the backup.")
  private Integer node;

  @JsonPropertyDescription(
      "The DhtBackup's metadata.generation this verification answers. To verify again, set"
          + " spec.verify to false and back to true.")
  private Long observedGeneration;

  @JsonPropertyDescription("When the node started the check (RFC 3339).")
  private String startedAt;

  @JsonPropertyDescription("When the check passed or failed (RFC 3339).")
  private String completedAt;

  @JsonPropertyDescription("Backed-up members whose checkpoint was checked so far.")
  private Integer membersChecked;

  @JsonPropertyDescription("Backed-up members the backup holds.")
  private Integer membersTotal;

  @JsonPropertyDescription("Files checked against their digests so far.")
  private Integer filesChecked;

  @JsonPropertyDescription("Bytes downloaded from the store so far.")
  private Long bytesDownloaded;

  @JsonPropertyDescription("Records read back so far (tombstones included).")
  private Long records;

  /** Whether nothing more happens to this verification: Passed or Failed. */
  public boolean finished() {
    return PASSED.equals(phase) || FAILED.equals(phase);
  }
}
