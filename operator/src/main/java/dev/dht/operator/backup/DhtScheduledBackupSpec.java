package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** When to back up which cluster, and how many backups to keep. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtScheduledBackupSpec {
  public static final int DEFAULT_COLLECT_GRACE_SECONDS = 3600;

  @Required
  @JsonPropertyDescription("The DhtCluster of this namespace to back up; it must have spec.backup.")
  private String cluster;

  @Required
  @JsonPropertyDescription(
      "When, as a cron expression of five fields (minute hour day-of-month month day-of-week,"
          + " in UTC; lists, ranges and steps such as */15 or 1-5), or @hourly, @daily,"
          + " @weekly, @monthly. A time missed while the operator was down is taken once when it"
          + " is back.")
  private String schedule;

  @Default("7")
  @Min(1)
  @JsonPropertyDescription(
      "How many completed backups to keep; older ones are deleted, failed ones once a newer"
          + " backup completed. Default: 7.")
  @Builder.Default
  private Integer keep = 7;

  @Default("3600")
  @Min(600)
  @JsonPropertyDescription(
      "Files in the store that no backup lists are deleted only once older than this, in"
          + " seconds (at least 600; default 3600): a backup that starts while the store is"
          + " collected lists its files only when it ends.")
  @Builder.Default
  private Integer collectGraceSeconds = DEFAULT_COLLECT_GRACE_SECONDS;

  @JsonPropertyDescription(
      "True: every DhtBackup made by this schedule verifies its backup once completed (its"
          + " spec.verify). Default: false.")
  private Boolean verify;

  @Default("false")
  @JsonPropertyDescription("True: take no new backups (retention still applies).")
  @Builder.Default
  private Boolean suspend = false;

  /** The collection's grace in seconds: as set, else the default; never under 600. */
  public long collectGrace() {
    return Math.max(
        600, collectGraceSeconds == null ? DEFAULT_COLLECT_GRACE_SECONDS : collectGraceSeconds);
  }
}
