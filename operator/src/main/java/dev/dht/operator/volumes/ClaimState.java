package dev.dht.operator.volumes;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** One node volume claim as status.storage shows it. */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class ClaimState {
  /** Where a claim stands against the size the spec asks for. */
  public enum Phase {
    /** Its volume holds the size (or more). */
    AtSize,
    /** Asked the size; the StorageClass's resizer expands the volume. */
    Resizing,
    /** The volume grew; its file system grows when the pod mounts it again (a restart). */
    FileSystemResizePending,
    /** Not bound yet (its pod is not scheduled): expanded once bound. */
    Unbound,
    /** The apiserver refused the larger size (the StorageClass does not allow expansion). */
    Refused
  }

  @JsonPropertyDescription("The PersistentVolumeClaim, data-<cluster>-<ordinal>.")
  private String name;

  @JsonPropertyDescription("The size it asks for (spec.resources.requests.storage).")
  private String requested;

  @JsonPropertyDescription("The size of its volume (status.capacity.storage); unset while unbound.")
  private String capacity;

  @JsonPropertyDescription(
      "AtSize, Resizing, FileSystemResizePending (restart the pod), Unbound or Refused.")
  private Phase phase;

  @JsonPropertyDescription("Why it is refused, as the apiserver said.")
  private String message;
}
