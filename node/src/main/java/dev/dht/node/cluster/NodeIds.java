package dev.dht.node.cluster;

import java.net.URI;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A node's id in the timestamps it issues (0..{@value HybridClock#MAX_NODE_ID}), unique in its
 * cluster: given explicitly, else the StatefulSet ordinal in its host name ({@code dht-demo-2.…} is
 * 2), else its position in the member list (which every member is given in the same order).
 */
public final class NodeIds {
  private static final Pattern ORDINAL = Pattern.compile("-(\\d{1,9})$");

  private NodeIds() {}

  /** {@code explicit} if not negative, else derived from {@code self} and {@code members}. */
  public static int resolve(int explicit, String self, List<String> members) {
    int id = explicit >= 0 ? explicit : derived(self, members);
    if (id > HybridClock.MAX_NODE_ID) {
      throw new IllegalArgumentException(
          "node id "
              + id
              + " is beyond "
              + HybridClock.MAX_NODE_ID
              + ": give each member a distinct --node-id in 0.."
              + HybridClock.MAX_NODE_ID);
    }
    return id;
  }

  private static int derived(String self, List<String> members) {
    String host = URI.create(Topology.normalize(self)).getHost();
    Matcher ordinal = ORDINAL.matcher(host.split("\\.", 2)[0]);
    if (ordinal.find() && !host.matches("[0-9.]+")) {
      return Integer.parseInt(ordinal.group(1));
    }
    String normalized = Topology.normalize(self);
    for (int i = 0; i < members.size(); i++) {
      if (Topology.normalize(members.get(i).strip()).equals(normalized)) {
        return i;
      }
    }
    return 0;
  }
}
