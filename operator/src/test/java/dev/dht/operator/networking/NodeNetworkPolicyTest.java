package dev.dht.operator.networking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.networking.NetworkPolicyEvaluator.Namespace;
import dev.dht.operator.networking.NetworkPolicyEvaluator.Pod;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The policy of a cluster's node pods, judged by who it lets reach which port ({@link
 * NetworkPolicyEvaluator}): the test cluster's CNI does not enforce NetworkPolicies.
 */
class NodeNetworkPolicyTest {
  static final NodeNetworkPolicy.Ports SPLIT = new NodeNetworkPolicy.Ports(8080, 7070, 9090);
  static final NodeNetworkPolicy.Ports SHARED = new NodeNetworkPolicy.Ports(8080, 8080, 8080);
  static final int CLIENT = 8080;
  static final int PEER = 7070;
  static final int ADMIN = 9090;

  static final Namespace SHOP = Namespace.named("shop");
  static final Namespace ELSEWHERE = Namespace.named("elsewhere");
  static final Namespace OPERATOR_NS = Namespace.named("dht-system");
  static final Namespace MONITORING = Namespace.named("monitoring");

  static final Map<String, String> OPERATOR_LABELS =
      Map.of("app.kubernetes.io/name", "dht-operator", "app.kubernetes.io/instance", "dht");
  static final AdminCallers ADMIN_CALLERS =
      new AdminCallers("dht-system", OPERATOR_LABELS, "monitoring");

  /** A node pod of cluster {@code cluster} in {@code namespace}, with its StatefulSet's labels. */
  static Pod node(Namespace namespace, String cluster) {
    return Pod.in(
        namespace,
        Map.of(
            "app.kubernetes.io/name",
            "dht",
            "app.kubernetes.io/instance",
            cluster,
            "statefulset.kubernetes.io/pod-name",
            cluster + "-0"));
  }

  static final Pod DEMO_NODE = node(SHOP, "demo");
  static final Pod OTHER_CLUSTERS_NODE = node(SHOP, "other");
  static final Pod SHOP_CLIENT = Pod.in(SHOP, Map.of("app", "checkout"));
  static final Pod FOREIGN_POD = Pod.in(ELSEWHERE, Map.of("app", "checkout"));
  static final Pod OPERATOR = Pod.in(OPERATOR_NS, OPERATOR_LABELS);
  static final Pod OPERATOR_NEIGHBOUR = Pod.in(OPERATOR_NS, Map.of("app", "something-else"));
  static final Pod PROMETHEUS = Pod.in(MONITORING, Map.of("app.kubernetes.io/name", "prometheus"));

  static NetworkPolicy policy(
      NodeNetworkPolicy.Ports ports, NetworkPolicySpec spec, AdminCallers admin) {
    return NodeNetworkPolicy.desired(
        new ObjectMetaBuilder().withName("demo").withNamespace("shop").build(),
        new NodeNetworkPolicy.Nodes(
            "shop",
            Map.of("app.kubernetes.io/name", "dht", "app.kubernetes.io/instance", "demo"),
            ports),
        spec,
        admin);
  }

  static boolean reaches(NetworkPolicy policy, Pod from, int port) {
    return NetworkPolicyEvaluator.allows(List.of(policy), from, DEMO_NODE, port);
  }

  @Test
  void aClientOfTheNamespaceReachesTheClientPortOnly() {
    var policy = policy(SPLIT, null, ADMIN_CALLERS);
    assertThat(reaches(policy, SHOP_CLIENT, CLIENT)).isTrue();
    assertThat(reaches(policy, SHOP_CLIENT, PEER)).isFalse();
    assertThat(reaches(policy, SHOP_CLIENT, ADMIN)).isFalse();
  }

  @Test
  void onlyTheClustersOwnNodesReachThePeerPort() {
    var policy = policy(SPLIT, null, ADMIN_CALLERS);
    assertThat(reaches(policy, DEMO_NODE, PEER)).isTrue();
    assertThat(reaches(policy, OTHER_CLUSTERS_NODE, PEER))
        .as("a node of another DhtCluster in the same namespace")
        .isFalse();
    assertThat(reaches(policy, node(ELSEWHERE, "demo"), PEER))
        .as("a node of a namesake cluster in another namespace")
        .isFalse();
    assertThat(reaches(policy, OPERATOR, PEER)).isFalse();
  }

  @Test
  void aPodOfAnotherNamespaceReachesNothingByDefault() {
    var policy = policy(SPLIT, null, ADMIN_CALLERS);
    for (int port : new int[] {CLIENT, PEER, ADMIN}) {
      assertThat(reaches(policy, FOREIGN_POD, port)).as("port %d", port).isFalse();
    }
  }

  @Test
  void theOperatorReachesTheAdminPortAndNoOtherPodOfItsNamespaceDoes() {
    var policy = policy(SPLIT, null, ADMIN_CALLERS);
    assertThat(reaches(policy, OPERATOR, ADMIN)).isTrue();
    assertThat(reaches(policy, OPERATOR, CLIENT)).isFalse();
    assertThat(reaches(policy, OPERATOR_NEIGHBOUR, ADMIN)).isFalse();
    assertThat(reaches(policy, Pod.in(ELSEWHERE, OPERATOR_LABELS), ADMIN))
        .as("pods labelled like the operator, in another namespace")
        .isFalse();
  }

  @Test
  void theMonitoringNamespaceReachesTheAdminPortOnly() {
    var policy = policy(SPLIT, null, ADMIN_CALLERS);
    assertThat(reaches(policy, PROMETHEUS, ADMIN)).isTrue();
    assertThat(reaches(policy, PROMETHEUS, CLIENT)).isFalse();
    assertThat(reaches(policy, PROMETHEUS, PEER)).isFalse();
  }

  @Test
  void withoutKnownAdminCallersNobodyReachesTheAdminPort() {
    var policy = policy(SPLIT, null, AdminCallers.NONE);
    assertThat(policy.getSpec().getIngress())
        .as("no rule with an empty from list, which would admit everyone")
        .allSatisfy(rule -> assertThat(rule.getFrom()).isNotEmpty());
    for (var pod : List.of(OPERATOR, PROMETHEUS, SHOP_CLIENT, DEMO_NODE, FOREIGN_POD)) {
      assertThat(reaches(policy, pod, ADMIN)).isFalse();
    }
    assertThat(reaches(policy, SHOP_CLIENT, CLIENT)).isTrue();
  }

  @Test
  void theOperatorWithoutKnownLabelsMeansItsWholeNamespace() {
    var policy = policy(SPLIT, null, new AdminCallers("dht-system", Map.of(), null));
    assertThat(reaches(policy, OPERATOR, ADMIN)).isTrue();
    assertThat(reaches(policy, OPERATOR_NEIGHBOUR, ADMIN)).isTrue();
    assertThat(reaches(policy, PROMETHEUS, ADMIN)).as("no monitoring namespace").isFalse();
  }

  @Test
  void clientsFromReplacesTheDefaultClients() {
    var frontends =
        Serialization.unmarshal(
            """
            namespaceSelector: {matchLabels: {team: web}}
            podSelector:
              matchExpressions: [{key: app, operator: In, values: [frontend, gateway]}]
            """,
            NetworkPolicyPeer.class);
    var spec = NetworkPolicySpec.builder().clientsFrom(List.of(frontends)).build();
    var policy = policy(SPLIT, spec, ADMIN_CALLERS);
    var web = new Namespace("web", Map.of("team", "web"));
    assertThat(reaches(policy, Pod.in(web, Map.of("app", "frontend")), CLIENT)).isTrue();
    assertThat(reaches(policy, Pod.in(web, Map.of("app", "gateway")), CLIENT)).isTrue();
    assertThat(reaches(policy, Pod.in(web, Map.of("app", "batch")), CLIENT)).isFalse();
    assertThat(reaches(policy, Pod.in(ELSEWHERE, Map.of("app", "frontend")), CLIENT)).isFalse();
    assertThat(reaches(policy, SHOP_CLIENT, CLIENT))
        .as("the cluster's namespace is no longer admitted by default")
        .isFalse();
    assertThat(reaches(policy, Pod.in(web, Map.of("app", "frontend")), ADMIN)).isFalse();
    assertThat(reaches(policy, DEMO_NODE, PEER)).as("peers keep their rule").isTrue();
    assertThat(reaches(policy, OPERATOR, ADMIN)).as("the operator keeps its rule").isTrue();
  }

  @Test
  void clientsFromMayAdmitAddressesOutsideTheCluster() {
    var spec =
        NetworkPolicySpec.builder()
            .clientsFrom(
                List.of(
                    Serialization.unmarshal(
                        "ipBlock: {cidr: 203.0.113.0/24}", NetworkPolicyPeer.class)))
            .build();
    var policy = policy(SPLIT, spec, ADMIN_CALLERS);
    assertThat(reaches(policy, Pod.outside("203.0.113.9"), CLIENT)).isTrue();
    assertThat(reaches(policy, Pod.outside("198.51.100.9"), CLIENT)).isFalse();
    assertThat(reaches(policy, Pod.outside("203.0.113.9"), PEER)).isFalse();
  }

  @Test
  void anEmptyClientsFromAdmitsNoClient() {
    var policy =
        policy(SPLIT, NetworkPolicySpec.builder().clientsFrom(List.of()).build(), ADMIN_CALLERS);
    assertThat(policy.getSpec().getIngress())
        .extracting(rule -> rule.getPorts().getFirst().getPort())
        .as("no client rule: an empty from list would admit everyone")
        .doesNotContain(new IntOrString(CLIENT));
    assertThat(reaches(policy, SHOP_CLIENT, CLIENT)).isFalse();
    assertThat(reaches(policy, FOREIGN_POD, CLIENT)).isFalse();
    assertThat(reaches(policy, DEMO_NODE, PEER)).isTrue();
  }

  @Test
  void theSharedPortAdmitsTheCallersOfEveryRole() {
    var policy = policy(SHARED, null, ADMIN_CALLERS);
    assertThat(policy.getSpec().getIngress()).hasSize(1);
    NetworkPolicyIngressRule rule = policy.getSpec().getIngress().getFirst();
    assertThat(rule.getPorts()).hasSize(1);
    assertThat(rule.getPorts().getFirst().getPort()).isEqualTo(new IntOrString(8080));
    for (var caller : List.of(SHOP_CLIENT, DEMO_NODE, OTHER_CLUSTERS_NODE, OPERATOR, PROMETHEUS)) {
      assertThat(reaches(policy, caller, 8080)).as("%s", caller).isTrue();
    }
    assertThat(reaches(policy, FOREIGN_POD, 8080)).isFalse();
    assertThat(reaches(policy, OPERATOR_NEIGHBOUR, 8080)).isFalse();
    assertThat(rule.getFrom()).as("each caller once").doesNotHaveDuplicates();
  }

  @Test
  void thePolicyGuardsOnlyThisClustersNodesAndOnlyTheirIngress() {
    var policy = policy(SPLIT, null, ADMIN_CALLERS);
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(policy.getSpec().getEgress()).isNullOrEmpty();
    assertThat(
            NetworkPolicyEvaluator.allows(List.of(policy), FOREIGN_POD, OTHER_CLUSTERS_NODE, PEER))
        .as("another cluster's node is not selected by this policy")
        .isTrue();
    assertThat(policy.getMetadata().getName()).isEqualTo("demo");
    assertThat(policy.getMetadata().getNamespace()).isEqualTo("shop");
  }
}
