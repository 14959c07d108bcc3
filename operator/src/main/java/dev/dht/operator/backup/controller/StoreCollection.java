package dev.dht.operator.backup.controller;

import static java.util.Objects.requireNonNullElse;

import dev.dht.operator.bounded.ReadLimit;
import dev.dht.operator.cluster.AdminAccess;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.Transport;
import dev.dht.operator.scaling.NodeAdmin;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Asks a cluster's nodes, one at a time until one answers, to delete the files in the store that no
 * backup lists ({@code POST /v0/admin/backup/collect?graceSeconds=S}, the schedule's
 * spec.collectGraceSeconds), as the operator reaches nodes for everything else ({@link NodeAdmin}:
 * the cluster secret, the cluster's CA on a TLS cluster). One node suffices: the store is the
 * cluster's.
 */
final class StoreCollection {
  /** The answer: a line of JSON. Listing a large store takes a while: minutes, not hours. */
  static final ReadLimit ANSWER =
      new ReadLimit("a node's answer to a collection", 16 * 1024, Duration.ofMinutes(5));

  /** What a node's answer may put into an event, at most. */
  private static final int MAX_TEXT = 300;

  /** Whether the store was collected, and the node's answer (JSON), or why not. */
  record Outcome(boolean done, String text) {}

  private final NodeAdmin admin;

  StoreCollection(NodeAdmin admin) {
    this.admin = admin;
  }

  /**
   * Asks the members of {@code cluster} in turn to delete the unlisted files older than {@code
   * graceSeconds}; the first that answers 200 did it.
   */
  Outcome collect(KubernetesClient client, DhtCluster cluster, long graceSeconds) {
    var status = cluster.getStatus();
    List<String> members =
        status == null ? List.of() : requireNonNullElse(status.getMembers(), List.of());
    if (members.isEmpty()) {
      return new Outcome(false, "the cluster has no members yet");
    }
    var access =
        AdminAccess.of(
            client,
            cluster.getMetadata().getNamespace(),
            cluster.getMetadata().getName(),
            requireNonNullElse(status.getTransport(), Transport.Plain));
    String why = "";
    for (String member : members) {
      try {
        var answer =
            admin.post(member, "backup/collect?graceSeconds=" + graceSeconds, access, ANSWER);
        if (answer.status() == 200) {
          return new Outcome(true, shortened(answer.text()));
        }
        why = member + " answered " + answer.status() + ": " + shortened(answer.text());
      } catch (IOException | RuntimeException e) { // an unreadable CA bundle, a bad URL
        why = member + " not reached (" + shortened(String.valueOf(e.getMessage())) + ")";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Outcome(false, "interrupted");
      }
    }
    return new Outcome(false, why);
  }

  private static String shortened(String text) {
    String line = text.strip().lines().findFirst().orElse("");
    return line.length() <= MAX_TEXT ? line : line.substring(0, MAX_TEXT) + "...";
  }
}
