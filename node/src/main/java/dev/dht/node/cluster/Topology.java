package dev.dht.node.cluster;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * The cluster as one node sees it: the member URLs, which one is this node, and the placement ring
 * over them. Immutable; a membership change builds a new one.
 */
public final class Topology {
  private final List<String> members;
  private final int selfIndex;
  private final Ring ring;

  private Topology(List<String> members, int selfIndex) {
    this.members = members;
    this.selfIndex = selfIndex;
    this.ring = new Ring(members);
  }

  /**
   * Builds a topology from member URLs, normalised and de-duplicated; {@code self} must be one of
   * them.
   */
  public static Topology of(List<String> memberUrls, String self) {
    LinkedHashSet<String> unique = new LinkedHashSet<>();
    for (String url : memberUrls) {
      String trimmed = url.strip();
      if (!trimmed.isEmpty()) {
        unique.add(normalize(trimmed));
      }
    }
    List<String> members = List.copyOf(unique);
    if (members.isEmpty()) {
      throw new IllegalArgumentException("the cluster has no members");
    }
    int selfIndex = members.indexOf(normalize(self));
    if (selfIndex < 0) {
      throw new IllegalArgumentException(
          "--self " + self + " is not one of the cluster members " + members);
    }
    return new Topology(members, selfIndex);
  }

  /**
   * Lower-cases scheme and host and drops a trailing slash; rejects what is not http://host:port.
   */
  public static String normalize(String url) {
    URI uri = URI.create(url.endsWith("/") ? url.substring(0, url.length() - 1) : url);
    if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() < 0) {
      throw new IllegalArgumentException("a member URL must look like http://host:port: " + url);
    }
    if (uri.getRawPath() != null && !uri.getRawPath().isEmpty()) {
      throw new IllegalArgumentException("a member URL must not have a path: " + url);
    }
    return "http://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + uri.getPort();
  }

  public List<String> members() {
    return members;
  }

  public int size() {
    return members.size();
  }

  public int selfIndex() {
    return selfIndex;
  }

  public String self() {
    return members.get(selfIndex);
  }

  public boolean isSelf(int index) {
    return index == selfIndex;
  }

  public String member(int index) {
    return members.get(index);
  }

  /** Indexes of the {@code from} replicas of {@code key}, best first. */
  public int[] replicas(byte[] key, int from) {
    return ring.replicas(key, from);
  }

  @Override
  public String toString() {
    return "Topology" + members + " self=" + self();
  }
}
