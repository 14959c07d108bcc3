package dev.dht.operator.networking;

import static dev.dht.operator.networking.NetworkPolicyEvaluator.allows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.networking.NetworkPolicyEvaluator.Namespace;
import dev.dht.operator.networking.NetworkPolicyEvaluator.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The evaluator itself, on hand-written policies whose verdicts follow from the Kubernetes
 * documentation of NetworkPolicy: the tests of the generated policies are only as good as it.
 */
class NetworkPolicyEvaluatorTest {
  static final Namespace APP = new Namespace("app", Map.of("team", "a"));
  static final Namespace WEB = new Namespace("web", Map.of("team", "b", "tier", "front"));
  static final Pod SERVER = Pod.in(APP, Map.of("role", "server"));
  static final Pod APP_CLIENT = Pod.in(APP, Map.of("role", "client"));
  static final Pod WEB_CLIENT = Pod.in(WEB, Map.of("role", "client"));
  static final Pod WEB_OTHER = Pod.in(WEB, Map.of("role", "batch"));

  /** A policy in namespace app on the server pods, with these ingress rules (YAML). */
  static NetworkPolicy onServers(String ingressYaml) {
    return Serialization.unmarshal(
        """
        apiVersion: networking.k8s.io/v1
        kind: NetworkPolicy
        metadata: {name: p, namespace: app}
        spec:
          podSelector: {matchLabels: {role: server}}
          policyTypes: [Ingress]
          ingress:
        %s\
        """
            .formatted(ingressYaml.indent(4)),
        NetworkPolicy.class);
  }

  @Test
  void aPodNoPolicySelectsAcceptsEverything() {
    var policy = onServers("[]");
    assertThat(allows(List.of(), WEB_CLIENT, SERVER, 1)).isTrue();
    assertThat(allows(List.of(policy), WEB_CLIENT, APP_CLIENT, 1)).as("not selected").isTrue();
    var elsewhere = onServers("[]");
    elsewhere.getMetadata().setNamespace("web");
    assertThat(allows(List.of(elsewhere), WEB_CLIENT, SERVER, 1))
        .as("a policy of another namespace")
        .isTrue();
    var egressOnly = onServers("[]");
    egressOnly.getSpec().setPolicyTypes(List.of("Egress"));
    assertThat(allows(List.of(egressOnly), WEB_CLIENT, SERVER, 1)).as("egress only").isTrue();
  }

  @Test
  void aSelectedPodWithoutRulesAcceptsNothing() {
    assertThat(allows(List.of(onServers("[]")), APP_CLIENT, SERVER, 80)).isFalse();
    var unsetTypes = onServers("[]");
    unsetTypes.getSpec().setPolicyTypes(null);
    assertThat(allows(List.of(unsetTypes), APP_CLIENT, SERVER, 80))
        .as("unset policyTypes restrict ingress")
        .isFalse();
  }

  @Test
  void portsAreMatchedByNumberAndRange() {
    var policy =
        onServers(
            """
            - ports: [{protocol: TCP, port: 80}, {port: 9000, endPort: 9010}]
              from: []\
            """);
    assertThat(allows(List.of(policy), WEB_CLIENT, SERVER, 80)).as("empty from: anyone").isTrue();
    assertThat(allows(List.of(policy), WEB_CLIENT, SERVER, 9005)).isTrue();
    assertThat(allows(List.of(policy), WEB_CLIENT, SERVER, 9010)).isTrue();
    assertThat(allows(List.of(policy), WEB_CLIENT, SERVER, 9011)).isFalse();
    assertThat(allows(List.of(policy), WEB_CLIENT, SERVER, 81)).isFalse();
    var anyPort = onServers("- from: [{podSelector: {}}]");
    assertThat(allows(List.of(anyPort), APP_CLIENT, SERVER, 12345)).as("no ports: all").isTrue();
  }

  @Test
  void aPodSelectorAloneMeansThePolicysNamespace() {
    var policy = onServers("- from: [{podSelector: {matchLabels: {role: client}}}]");
    assertThat(allows(List.of(policy), APP_CLIENT, SERVER, 80)).isTrue();
    assertThat(allows(List.of(policy), WEB_CLIENT, SERVER, 80)).isFalse();
  }

  @Test
  void aNamespaceSelectorAloneMeansEveryPodThere() {
    var policy = onServers("- from: [{namespaceSelector: {matchLabels: {team: b}}}]");
    assertThat(allows(List.of(policy), WEB_CLIENT, SERVER, 80)).isTrue();
    assertThat(allows(List.of(policy), WEB_OTHER, SERVER, 80)).isTrue();
    assertThat(allows(List.of(policy), APP_CLIENT, SERVER, 80)).isFalse();
    var byName =
        onServers(
            "- from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: web}}}]");
    assertThat(allows(List.of(byName), WEB_CLIENT, SERVER, 80)).as("the name label").isTrue();
    var all = onServers("- from: [{namespaceSelector: {}}]");
    assertThat(allows(List.of(all), WEB_OTHER, SERVER, 80)).as("{}: every namespace").isTrue();
  }

  @Test
  void bothSelectorsInOnePeerAreAndTwoPeersAreOr() {
    var and =
        onServers(
            "- from: [{namespaceSelector: {matchLabels: {team: b}},"
                + " podSelector: {matchLabels: {role: client}}}]");
    assertThat(allows(List.of(and), WEB_CLIENT, SERVER, 80)).isTrue();
    assertThat(allows(List.of(and), WEB_OTHER, SERVER, 80)).as("wrong pod").isFalse();
    assertThat(allows(List.of(and), APP_CLIENT, SERVER, 80)).as("wrong namespace").isFalse();
    var or =
        onServers(
            "- from: [{namespaceSelector: {matchLabels: {team: b}}},"
                + " {podSelector: {matchLabels: {role: client}}}]");
    assertThat(allows(List.of(or), WEB_OTHER, SERVER, 80)).isTrue();
    assertThat(allows(List.of(or), APP_CLIENT, SERVER, 80)).isTrue();
    assertThat(allows(List.of(or), Pod.in(APP, Map.of()), SERVER, 80)).isFalse();
  }

  @ParameterizedTest(name = "{0} {1} {2} on role={3}: {4}")
  @CsvSource({
    "role,In,client|batch,client,true",
    "role,In,client|batch,server,false",
    "role,In,client|batch,,false",
    "role,NotIn,batch,client,true",
    "role,NotIn,batch,batch,false",
    "role,NotIn,batch,,true", // no label: NotIn holds
    "role,Exists,,client,true",
    "role,Exists,,,false",
    "role,DoesNotExist,,client,false",
    "role,DoesNotExist,,,true"
  })
  void matchExpressions(String key, String operator, String values, String role, boolean held) {
    var policy =
        onServers(
            "- from: [{podSelector: {matchExpressions: [{key: %s, operator: %s, values: [%s]}]}}]"
                .formatted(key, operator, values == null ? "" : values.replace('|', ',')));
    var pod = Pod.in(APP, role == null ? Map.of() : Map.of("role", role));
    assertThat(allows(List.of(policy), pod, SERVER, 80)).isEqualTo(held);
  }

  @Test
  void matchLabelsAndMatchExpressionsAreAnded() {
    var policy =
        onServers(
            "- from: [{podSelector: {matchLabels: {role: client},"
                + " matchExpressions: [{key: tier, operator: Exists}]}}]");
    assertThat(allows(List.of(policy), APP_CLIENT, SERVER, 80)).isFalse();
    assertThat(
            allows(List.of(policy), Pod.in(APP, Map.of("role", "client", "tier", "x")), SERVER, 80))
        .isTrue();
  }

  @Test
  void rulesAndPoliciesAddUp() {
    var clients80 =
        onServers("- ports: [{port: 80}]\n  from: [{podSelector: {matchLabels: {role: client}}}]");
    var web81 =
        onServers("- ports: [{port: 81}]\n  from: [{namespaceSelector: {matchLabels: {team: b}}}]");
    var both = List.of(clients80, web81);
    assertThat(allows(both, APP_CLIENT, SERVER, 80)).isTrue();
    assertThat(allows(both, APP_CLIENT, SERVER, 81)).isFalse();
    assertThat(allows(both, WEB_OTHER, SERVER, 81)).isTrue();
    assertThat(allows(both, WEB_OTHER, SERVER, 80)).isFalse();
  }

  @Test
  void ipBlocksMatchAddressesWithExceptions() {
    var policy = onServers("- from: [{ipBlock: {cidr: 192.168.0.0/16, except: [192.168.9.0/24]}}]");
    assertThat(allows(List.of(policy), Pod.outside("192.168.1.7"), SERVER, 80)).isTrue();
    assertThat(allows(List.of(policy), Pod.outside("192.168.9.7"), SERVER, 80)).isFalse();
    assertThat(allows(List.of(policy), Pod.outside("10.0.0.1"), SERVER, 80)).isFalse();
    var pods = onServers("- from: [{namespaceSelector: {}}]");
    assertThat(allows(List.of(pods), Pod.outside("10.0.0.1"), SERVER, 80))
        .as("selectors name pods, not outside addresses")
        .isFalse();
  }

  @Test
  void whatItDoesNotModelIsRefused() {
    var named = onServers("- ports: [{port: http}]");
    assertThatThrownBy(() -> allows(List.of(named), APP_CLIENT, SERVER, 80))
        .isInstanceOf(UnsupportedOperationException.class);
    var udp = onServers("- ports: [{protocol: UDP, port: 53}]");
    assertThatThrownBy(() -> allows(List.of(udp), APP_CLIENT, SERVER, 53))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
