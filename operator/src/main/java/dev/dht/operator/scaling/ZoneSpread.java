package dev.dht.operator.scaling;

import dev.dht.operator.scaling.Membership.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What status.zones says of a membership: the zones the nodes place by, in how many distinct zones
 * each key's replicas are, and whether those are the zones the members' pods run in now. A key's
 * first {@code min(from, zones)} replicas are in distinct zones (the nodes' placement goes round
 * the zones), so the replicas span the zones whenever the zones published are the pods' own.
 */
public final class ZoneSpread {
  private ZoneSpread() {}

  /**
   * @param now the membership published
   * @param observed the zones the members should have, by ordinal: their pods' Kubernetes nodes'
   *     ("" for none; absent: not known)
   * @param byZone whether spec.topology.placeReplicasByZone lets the members have zones
   * @param restoring whether the cluster loads a backup (no change of zones starts before it did)
   * @param names pod names by ordinal
   */
  public static ZonesStatus of(
      Membership now,
      Map<Integer, String> observed,
      String zoneKey,
      boolean byZone,
      boolean restoring,
      ScalePlan.Names names) {
    boolean targetRing = now.getStep() == Step.FINAL || now.getStep() == Step.CLEANING_UP;
    int members = targetRing ? now.getTarget() : now.getMembers();
    List<String> zones = Zones.kept(targetRing ? now.getTargetZones() : now.getZones(), members);
    Map<String, Integer> perZone = new TreeMap<>();
    zones.forEach(zone -> perZone.merge(zone, 1, Integer::sum));
    var replication = now.published();
    int from = replication == null ? now.getFrom() : replication.from();
    int replicaZones = Math.max(1, Math.min(from, perZone.size()));
    var status =
        ZonesStatus.builder()
            .zoneKey(zoneKey)
            .zones(
                perZone.entrySet().stream()
                    .map(e -> new ZonesStatus.Zone(e.getKey(), e.getValue()))
                    .toList())
            .replicaZones(replicaZones);
    String waiting = waiting(now, zones, observed, members, restoring, names);
    if (waiting != null) {
      return status.spanned(false).message(waiting).build();
    }
    if (perZone.isEmpty()) {
      String why =
          !byZone
              ? "spec.topology.placeReplicasByZone is false"
              : observed.isEmpty()
                  ? "the members' nodes are not known (not scheduled, or the operator may not get"
                      + " nodes)"
                  : "no member's node has the label " + zoneKey;
      return status.spanned(false).message("placement has no zones: " + why).build();
    }
    String message =
        perZone.size() == 1
            ? "every key's " + from + " replicas are in the one zone there is"
            : "every key's "
                + from
                + " replicas are in "
                + replicaZones
                + " distinct zones"
                + (perZone.size() > replicaZones ? " of " + perZone.size() : "");
    return status.spanned(true).message(message).build();
  }

  /**
   * Why the zones published are not the members' own (yet); null if they are, for every member
   * whose zone is known.
   */
  private static String waiting(
      Membership now,
      List<String> zones,
      Map<Integer, String> observed,
      int members,
      boolean restoring,
      ScalePlan.Names names) {
    int stay = Math.min(now.getMembers(), now.getTarget());
    if (now.getStep() != Step.STABLE
        && !Zones.kept(now.getTargetZones(), stay).equals(Zones.kept(now.getZones(), stay))) {
      return "the replicas move to the members' zones (status.membership.step "
          + now.getStep()
          + ")";
    }
    List<String> moved = new ArrayList<>();
    for (int i = 0; i < members; i++) {
      String seen = observed.get(i);
      if (seen != null && !Objects.equals(seen.isEmpty() ? null : seen, Zones.of(zones, i))) {
        moved.add(names.of(i) + " (" + (seen.isEmpty() ? "no zone" : seen) + ")");
      }
    }
    return moved.isEmpty()
        ? null
        : "the members' zones are to change: "
            + String.join(", ", moved)
            + (restoring
                ? "; the replicas move once the restore is done"
                : "; the replicas move once every node places by zone and no other change runs");
  }
}
