package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** A {@link DhtScheduledBackup}'s last and next backups. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtScheduledBackupStatus {
  @JsonPropertyDescription("metadata.generation this status was computed for.")
  private Long observedGeneration;

  @JsonPropertyDescription("The scheduled time of the last backup made (RFC 3339).")
  private String lastScheduleTime;

  @JsonPropertyDescription("The next scheduled time (RFC 3339).")
  private String nextScheduleTime;

  @JsonPropertyDescription("The last DhtBackup made.")
  private String lastBackup;

  @JsonPropertyDescription("The newest DhtBackup that completed.")
  private String lastSuccessfulBackup;

  @JsonPropertyDescription("When it completed (RFC 3339).")
  private String lastSuccessfulTime;

  @JsonPropertyDescription(
      "Why no backup is made (a bad schedule, a missing cluster), or what the next one waits for,"
          + " if so.")
  private String message;

  @JsonPropertyDescription(
      "True: backups were deleted, and the files in the store that no remaining backup needs are"
          + " to be collected once no backup of the cluster runs.")
  private Boolean collectPending;

  @JsonPropertyDescription("When the store's unneeded files were last collected (RFC 3339).")
  private String lastCollectTime;
}
