package dev.dht.operator.networking;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeerBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Who, besides the clients and the nodes themselves, must reach the nodes' admin port: the
 * operator's own pods (it reads the nodes' state there and drives their membership changes) and the
 * monitoring namespace (Prometheus scrapes {@code /metrics} there). Known from the operator's
 * settings.
 *
 * @param operatorNamespace the operator's namespace; null when unknown (an operator run outside the
 *     Kubernetes cluster, which no pod selector names): then no rule admits it
 * @param operatorPodLabels labels that select the operator's pods; empty: every pod of its
 *     namespace
 * @param monitoringNamespace the namespace whose pods may scrape the nodes; null: none
 */
public record AdminCallers(
    String operatorNamespace, Map<String, String> operatorPodLabels, String monitoringNamespace) {

  /** No operator pod and no monitoring namespace known: only clients and peers are admitted. */
  public static final AdminCallers NONE = new AdminCallers(null, Map.of(), null);

  public AdminCallers {
    operatorPodLabels = Map.copyOf(operatorPodLabels);
  }

  /** The from list of the admin port's rule; empty when nobody is known. */
  List<NetworkPolicyPeer> peers() {
    var peers = new ArrayList<NetworkPolicyPeer>();
    if (operatorNamespace != null) {
      var operator =
          new NetworkPolicyPeerBuilder()
              .withNamespaceSelector(NodeNetworkPolicy.namespaceNamed(operatorNamespace));
      if (!operatorPodLabels.isEmpty()) {
        operator.withNewPodSelector().withMatchLabels(operatorPodLabels).endPodSelector();
      }
      peers.add(operator.build());
    }
    if (monitoringNamespace != null) {
      peers.add(
          new NetworkPolicyPeerBuilder()
              .withNamespaceSelector(NodeNetworkPolicy.namespaceNamed(monitoringNamespace))
              .build());
    }
    return peers;
  }
}
