package dev.dht.node.http;

import io.vertx.core.http.ClientAuth;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One port of the node and the roles of the requests it takes: clients' (the entity API), peers'
 * (the internal API) and admins' (health, metrics, admin). With separate ports a NetworkPolicy can
 * tell them apart, and with TLS the peer port alone demands a certificate from the cluster's CA.
 */
record Listener(int port, Set<Role> roles) {
  /** Who a request is for, by its path. */
  enum Role {
    CLIENT,
    PEER,
    ADMIN
  }

  /** The listeners of the three ports, ports shared by several roles served once. */
  static List<Listener> of(int clientPort, int peerPort, int adminPort) {
    Map<Integer, Set<Role>> byPort = new LinkedHashMap<>();
    byPort.computeIfAbsent(clientPort, p -> EnumSet.noneOf(Role.class)).add(Role.CLIENT);
    byPort.computeIfAbsent(peerPort, p -> EnumSet.noneOf(Role.class)).add(Role.PEER);
    byPort.computeIfAbsent(adminPort, p -> EnumSet.noneOf(Role.class)).add(Role.ADMIN);
    List<Listener> listeners = new ArrayList<>();
    byPort.forEach((port, roles) -> listeners.add(new Listener(port, Set.copyOf(roles))));
    return List.copyOf(listeners);
  }

  /**
   * With TLS, the client certificates this port asks for: the peer port demands one from the
   * cluster's CA; the other ports ask for one and take a connection without: an admin may prove
   * itself with the cluster secret instead, a client user with a bearer token (a user's certificate
   * is one of the cluster's CA with its user's common name).
   */
  ClientAuth clientAuth() {
    return roles.equals(Set.of(Role.PEER)) ? ClientAuth.REQUIRED : ClientAuth.REQUEST;
  }

  boolean serves(Role role) {
    return roles.contains(role);
  }
}
