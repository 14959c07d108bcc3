package dev.dht.node.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Free ports on 127.0.0.1, picked by the kernel, each handed out once per JVM: the kernel may give
 * a port it gave a moment ago, and two members of one cluster on the same port would be one member
 * (the nodes de-duplicate their member URLs), with the second node's failure to bind hidden behind
 * the first one's answers.
 */
public final class Ports {
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private Ports() {}

  public static int free() {
    while (true) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        if (HANDED_OUT.add(socket.getLocalPort())) {
          return socket.getLocalPort();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
