package dev.dht.operator.settings;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import java.util.List;
import lombok.AccessLevel;
import lombok.AllArgsConstructor;
import lombok.Builder;
import lombok.Data;
import lombok.NoArgsConstructor;

/** spec.topology: how the node pods spread over zones and hosts. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Data
@Builder(toBuilder = true)
@NoArgsConstructor
@AllArgsConstructor(access = AccessLevel.PRIVATE)
public class TopologySpec {
  /** Fields a change of which needs no node restart (it reaches the nodes in the members file). */
  public static final List<String> NOT_RESTART_FIELDS = List.of("placeReplicasByZone");

  /** The zone label every cloud provider sets on its Kubernetes nodes. */
  public static final String DEFAULT_ZONE_KEY = "topology.kubernetes.io/zone";

  @Pattern(
      "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?"
          + "[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$")
  @JsonPropertyDescription(
      "The Kubernetes node label whose values are the zones. The pods spread evenly over them"
          + " (a topology spread constraint, maxSkew 1, ScheduleAnyway: a node without the label"
          + " still takes pods), unless scheduling.topologySpreadConstraints has one on this key"
          + " already; and each member is given the zone of its pod's node, so that the nodes put"
          + " a key's replicas in as many distinct zones as there are, up to from (status.zones)."
          + " A change of a member's zone moves keys in the steps of a change of membership."
          + " Default: topology.kubernetes.io/zone. A change restarts the nodes one at a time.")
  private String zoneKey;

  @JsonPropertyDescription(
      "Whether two nodes of the cluster must never run on one host (a required pod"
          + " anti-affinity on kubernetes.io/hostname): a host that fails then takes one replica of"
          + " a key at most, but a cluster needs as many schedulable hosts as nodes. false: only"
          + " preferred. Default: false. A change restarts the nodes one at a time.")
  private Boolean requiredHostAntiAffinity;

  @JsonPropertyDescription(
      "Whether each member is given the zone of its pod's Kubernetes node (zoneKey), so that the"
          + " nodes put a key's replicas in as many distinct zones as there are (status.zones)."
          + " false: no zones; a cluster that has them moves its keys back to plain rendezvous"
          + " placement in the steps of a change of membership. Default: true. No restart.")
  private Boolean placeReplicasByZone;

  /** The zone label in force. */
  @JsonIgnore
  public String zoneKeyOrDefault() {
    return zoneKey == null ? DEFAULT_ZONE_KEY : zoneKey;
  }

  /** Whether the members are given zones. */
  @JsonIgnore
  public boolean replicasByZone() {
    return !Boolean.FALSE.equals(placeReplicasByZone);
  }

  /** Whether the host anti-affinity is required. */
  @JsonIgnore
  public boolean hostsRequired() {
    return Boolean.TRUE.equals(requiredHostAntiAffinity);
  }
}
