package dev.dht.operator.backup;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/**
 * Which cluster a {@link DhtBackup} backs up, and whether to verify the backup once it completed.
 * Only {@code verify} may change, so that an existing backup can be verified.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(
    value = "self.cluster == oldSelf.cluster",
    message = "a backup's cluster is immutable (only spec.verify may change)")
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class DhtBackupSpec {
  @Required
  @JsonPropertyDescription("The DhtCluster of this namespace to back up; it must have spec.backup.")
  private String cluster;

  @JsonPropertyDescription(
      "True: once the backup completed, one node downloads it into scratch space, checks every"
          + " file against its digest and reads every member's checkpoint back (status"
          + ".verification). May be set on a completed backup to verify it; set it to false and"
          + " back to true to verify again. Default: false.")
  private Boolean verify;

  /** Whether the backup is to be verified. */
  public boolean verifyRequested() {
    return Boolean.TRUE.equals(verify);
  }
}
