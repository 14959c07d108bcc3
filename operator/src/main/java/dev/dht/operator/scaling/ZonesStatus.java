package dev.dht.operator.scaling;

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

/** status.zones: the zones the nodes place a key's replicas by, and whether they span them. */
@JsonIgnoreProperties(ignoreUnknown = true) // a status of a newer operator (a roll back)
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class ZonesStatus {
  /** A zone and how many members the nodes place in it. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Zone(
      @JsonPropertyDescription("The zone: the value of the zone label (\"\" for none).")
          String name,
      @JsonPropertyDescription("Members in it.") int members) {}

  @JsonPropertyDescription("The Kubernetes node label the zones are read from (spec.topology).")
  private String zoneKey;

  @JsonPropertyDescription(
      "The zones of the membership the nodes place by, with their members; empty when no member"
          + " has one.")
  @Builder.Default
  private List<Zone> zones = new ArrayList<>();

  @JsonPropertyDescription(
      "In how many distinct zones each key's replicas (the default from) are: as many as there"
          + " are zones, up to from; 1 without zones.")
  private int replicaZones;

  @JsonPropertyDescription(
      "Whether the nodes place by the zones the members' pods run in now, so that every key's"
          + " replicas are in replicaZones distinct zones (false during a change of zones, or"
          + " while one waits).")
  private boolean spanned;

  @JsonPropertyDescription("What this means, or what a change of zones waits for.")
  private String message;
}
