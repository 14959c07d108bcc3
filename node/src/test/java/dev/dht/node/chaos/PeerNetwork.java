package dev.dht.node.chaos;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Node-to-node traffic through a proxy per ordered pair of nodes, so that a node can be cut off
 * from its peers but not from its clients. Members are named {@code n0, n1, ...}; node {@code i}
 * resolves them through its own hosts file (the JDK's, which Vert.x uses once its own DNS resolver
 * is off): its peers to {@code 127.0.(10+i).1}, where a proxy per peer listens on that peer's port
 * and forwards to the peer on {@code 127.0.0.1}, where clients reach it directly.
 */
final class PeerNetwork implements AutoCloseable {
  /** Where the nodes listen: on loopback's first address only, the others are the proxies'. */
  static final String LISTEN_ADDRESS = "127.0.0.1";

  private final Path root;
  private final List<Link> links = new ArrayList<>();

  private record Link(int from, int to, TcpProxy proxy) {}

  PeerNetwork(Path root, List<Integer> ports) throws IOException {
    this.root = root;
    for (int from = 0; from < ports.size(); from++) {
      StringBuilder hosts = new StringBuilder();
      for (int to = 0; to < ports.size(); to++) {
        hosts
            .append(from == to ? LISTEN_ADDRESS : sourceAddress(from))
            .append(' ')
            .append(host(to));
        hosts.append('\n');
        if (from != to) {
          var listen = new InetSocketAddress(sourceAddress(from), ports.get(to));
          var target = new InetSocketAddress(LISTEN_ADDRESS, ports.get(to));
          links.add(new Link(from, to, new TcpProxy(listen, target)));
        }
      }
      Files.writeString(hostsFile(from), hosts);
    }
  }

  static String host(int i) {
    return "n" + i;
  }

  /** The JVM options that make node {@code i} resolve its peers through its hosts file. */
  Map<String, String> env(int i) {
    return Map.of(
        "JAVA_TOOL_OPTIONS",
        "-Dvertx.disableDnsResolver=true -Djdk.net.hosts.file=" + hostsFile(i));
  }

  /** Cuts (true) or mends (false) every link to and from node {@code i}. */
  void isolate(int i, boolean cut) {
    for (Link link : links) {
      if (link.from() == i || link.to() == i) {
        link.proxy().cut(cut);
      }
    }
  }

  private Path hostsFile(int i) {
    return root.resolve("hosts-" + i);
  }

  private static String sourceAddress(int i) {
    return "127.0." + (10 + i) + ".1";
  }

  @Override
  public void close() {
    links.forEach(link -> link.proxy().close());
  }
}
