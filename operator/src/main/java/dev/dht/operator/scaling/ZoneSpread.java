package dev.dht.operator.scaling;

import dev.dht.operator.scaling.Membership.Step;
import java.util.List;
import java.util.Map;
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
   * @param observed the zones of the pods' Kubernetes nodes, by ordinal ("" for none; absent: not
   *     known)
   * @param names pod names by ordinal
   */
  public static ZonesStatus of(
      Membership now, Map<Integer, String> observed, String zoneKey, ScalePlan.Names names) {
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
    String waiting = waiting(now, zones, observed, members, zoneKey, names);
    if (waiting != null) {
      return status.spanned(false).message(waiting).build();
    }
    String message =
        perZone.isEmpty()
            ? "no member's node has the label " + zoneKey + ": placement has no zones"
            : perZone.size() == 1
                ? "every key's " + from + " replicas are in the one zone there is"
                : "every key's "
                    + from
                    + " replicas are in "
                    + replicaZones
                    + " distinct zones"
                    + (perZone.size() > replicaZones ? " of " + perZone.size() : "");
    return status.spanned(!perZone.isEmpty()).message(message).build();
  }

  /** Why the zones published are not the pods' own (yet); null if they are. */
  private static String waiting(
      Membership now,
      List<String> zones,
      Map<Integer, String> observed,
      int members,
      String zoneKey,
      ScalePlan.Names names) {
    if (now.getStep() != Step.STABLE
        && !Zones.kept(now.getTargetZones(), now.getTarget())
            .equals(Zones.kept(now.getZones(), now.getMembers()))) {
      return "the replicas move to the members' zones (status.membership.step "
          + now.getStep()
          + ")";
    }
    for (int i = 0; i < members; i++) {
      if (!observed.containsKey(i)) {
        return "the zone of " + names.of(i) + "'s node is not known (not scheduled, or unread)";
      }
    }
    List<String> seen = Zones.observed(zones, observed, members);
    if (!zones.equals(seen)) {
      return "the members' nodes are in zones "
          + seen
          + " ("
          + zoneKey
          + "), the nodes place by "
          + zones
          + ": the replicas move once every node places by zone and no other change runs";
    }
    return null;
  }
}
