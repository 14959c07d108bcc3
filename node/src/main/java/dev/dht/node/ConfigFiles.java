package dev.dht.node;

import dev.dht.contract.MembersFile;
import dev.dht.contract.SettingsFile;
import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses the files a node re-reads while it runs (written by the operator's ConfigMap). */
public final class ConfigFiles {
  private ConfigFiles() {}

  /**
   * The membership of a {@link MembersFile}. A node missing from a membership of epoch 1 or more
   * (started before it is listed) takes itself as joining.
   */
  public static Topology topology(String content, String self) {
    MembersFile file = MembersFile.parse(content);
    Map<String, Topology.State> members = new LinkedHashMap<>();
    for (MembersFile.Member member : file.members()) {
      members.put(Topology.normalize(member.url()), Topology.State.valueOf(member.state().name()));
    }
    if (file.epoch() > 0 && !members.containsKey(Topology.normalize(self))) {
      // a new node, started before the membership lists it: it waits, owning nothing, as a
      // joining member in its own view only; others send it nothing until they list it
      members.put(Topology.normalize(self), Topology.State.JOINING);
    }
    return Topology.of(file.epoch(), members, file.readNext(), self);
  }

  /** The member URLs of a membership file (whatever their state). */
  public static List<String> members(String content) {
    return MembersFile.parse(content).urls();
  }

  /**
   * The default ack and from of a {@link SettingsFile}; a value it leaves unset keeps the flag's
   * ({@code fallback}).
   */
  public static Replication.Defaults defaults(String content, Replication.Defaults fallback) {
    SettingsFile file = SettingsFile.parse(content);
    int ack = file.defaultAck() != null ? file.defaultAck() : fallback.ack();
    int from = file.defaultFrom() != null ? file.defaultFrom() : fallback.from();
    if (ack < 0 || from < 0 || (ack > 0 && from > 0 && ack > from)) {
      throw new IllegalArgumentException(
          "settings need 0 <= default-ack <= default-from, got " + ack + "/" + from);
    }
    return new Replication.Defaults(ack, from);
  }
}
