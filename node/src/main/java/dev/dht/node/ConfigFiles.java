package dev.dht.node;

import dev.dht.contract.MembersFile;
import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses the files a node re-reads while it runs (written by the operator's ConfigMap). */
public final class ConfigFiles {
  private ConfigFiles() {}

  /**
   * The membership of a {@link MembersFile}, with its zones and the replication defaults it gives,
   * else {@code flags}. A node missing from a membership of epoch 1 or more (started before it is
   * listed) takes itself as joining.
   */
  public static Topology topology(String content, String self, Replication.Defaults flags) {
    MembersFile file = MembersFile.parse(content);
    Map<String, Topology.State> members = new LinkedHashMap<>();
    Map<String, String> zones = new LinkedHashMap<>();
    Map<String, String> nextZones = new LinkedHashMap<>();
    for (MembersFile.Member member : file.members()) {
      String url = Topology.normalize(member.url());
      members.put(url, Topology.State.valueOf(member.state().name()));
      if (member.zone() != null) {
        zones.put(url, member.zone());
      }
      if (member.zoneNext() != null) {
        nextZones.put(url, member.zoneNext());
      }
    }
    if (file.epoch() > 0 && !members.containsKey(Topology.normalize(self))) {
      // a new node, started before the membership lists it: it waits, owning nothing, as a
      // joining member in its own view only; others send it nothing until they list it
      members.put(Topology.normalize(self), Topology.State.JOINING);
    }
    Replication.Defaults defaults = defaults(file.replication(), flags);
    return Topology.of(
        file.epoch(),
        members,
        zones,
        nextZones,
        defaults,
        defaults(file.nextReplication(), defaults),
        file.readNext(),
        self);
  }

  private static Replication.Defaults defaults(
      MembersFile.Replication replication, Replication.Defaults otherwise) {
    return replication == null
        ? otherwise
        : new Replication.Defaults(replication.ack(), replication.from());
  }

  /** The member URLs of a membership file (whatever their state). */
  public static List<String> members(String content) {
    return MembersFile.parse(content).urls();
  }
}
