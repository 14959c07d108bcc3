package dev.dht.node.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports for the nodes a test starts, each handed out once per JVM, from below Kubernetes'
 * NodePort range (30000-32767) and Linux's ephemeral range (32768 and up).
 *
 * <ul>
 *   <li>Once: two members of one cluster on one port would be one member (nodes de-duplicate their
 *       member URLs), the second node's failure to bind hidden behind the first one's answers; the
 *       kernel may well give a port it gave a moment ago.
 *   <li>Below the ephemeral range: between the pick and the node's bind, any outgoing connection of
 *       the machine may take an ephemeral port as its own, and the node could not bind it.
 * </ul>
 */
public final class Ports {
  private static final int LOWEST = 12_000;
  private static final int BELOW = 30_000;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private Ports() {}

  /** A port nothing listens on (on any address), not handed out before. */
  public static int free() {
    for (int tries = 0; tries < 10_000; tries++) {
      int port = ThreadLocalRandom.current().nextInt(LOWEST, BELOW);
      if (!HANDED_OUT.contains(port) && bindable(port) && HANDED_OUT.add(port)) {
        return port;
      }
    }
    throw new IllegalStateException("no free port in " + LOWEST + "-" + (BELOW - 1));
  }

  private static boolean bindable(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
