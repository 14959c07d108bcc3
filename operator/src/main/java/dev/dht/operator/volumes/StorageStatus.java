package dev.dht.operator.volumes;

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

/** status.storage: the node volumes against spec.storage.size. */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class StorageStatus {
  @JsonPropertyDescription("The size spec.storage.size asks for.")
  private String size;

  @JsonPropertyDescription(
      "The size the StatefulSet's claim template gives the claims it creates: the size the"
          + " cluster was created with (a StatefulSet's claim templates cannot change). Such a"
          + " claim is asked for size once it is bound, as the others were.")
  private String templateSize;

  @JsonPropertyDescription(
      "Each claim of the cluster's members, by name (not the detached ones a scale-down kept).")
  @Builder.Default
  private List<ClaimState> claims = new ArrayList<>();
}
