package dev.dht.operator.loadtest.job;

import dev.dht.operator.cluster.ClusterModel;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.Transport;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.policy.ChartPolicy;
import dev.dht.operator.policy.Refusal;
import dev.dht.operator.users.Authentication;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Optional;

/**
 * Where the load goes and which image generates it, or why the test cannot start yet. Pure.
 *
 * @param ready the Job may be created
 * @param reason CamelCase reason of the TargetReady condition
 * @param nodes the cluster's node URLs (members), for profiling; empty for a targetUrl
 * @param secretName the cluster's Secret (the operator's profile requests need it); null for a
 *     targetUrl
 * @param caSecretName the Secret of a TLS cluster's CA bundle ({@code ca.crt}), which the
 *     generators trust; null for a plain cluster or a targetUrl
 * @param userName the DhtUser the generators authenticate as, on a cluster that demands credentials
 *     ({@link GeneratorUser}); null otherwise
 */
public record Target(
    boolean ready,
    String url,
    String image,
    String reason,
    String message,
    List<String> nodes,
    String secretName,
    String caSecretName,
    String userName) {
  static final String EXTERNAL = "ExternalTarget";
  static final String CLUSTER_READY = "ClusterReady";
  public static final String CLUSTER_NOT_FOUND = "ClusterNotFound";
  static final String CLUSTER_NOT_READY = "ClusterNotReady";
  public static final String USER_NOT_READY = "UserNotReady";
  public static final String TARGET_NOT_ALLOWED = Refusal.TARGET_NOT_ALLOWED;
  public static final String IMAGE_NOT_ALLOWED = Refusal.IMAGE_NOT_ALLOWED;

  /**
   * A targetUrl only if the chart's policy lists it (policy.loadTestTargets; the generators get it
   * as the policy parsed it); a clusterRef must name a DhtCluster whose Ready condition is True (no
   * point in measuring a cluster that is still starting). Its client Service is the target and its
   * image, when it names one and the policy allows it (policy.images), runs the load generator: the
   * loadgen then matches the nodes. {@code defaultImage}, the operator's, is always allowed.
   */
  public static Target resolve(
      DhtLoadTest test, Optional<DhtCluster> cluster, String defaultImage, ChartPolicy policy) {
    var spec = test.getSpec();
    if (spec.getTargetUrl() != null) {
      var decision = policy.loadTestTargets().check(spec.getTargetUrl());
      if (!decision.allowed()) {
        return notReady(decision.refusal().reason(), decision.refusal().message());
      }
      String url = decision.url();
      return new Target(
          true, url, defaultImage, EXTERNAL, "load goes to " + url, List.of(), null, null, null);
    }
    String name = spec.getClusterRef().getName();
    String namespace = test.getMetadata().getNamespace();
    if (cluster.isEmpty() || cluster.get().getMetadata().getDeletionTimestamp() != null) {
      return notReady(
          CLUSTER_NOT_FOUND,
          "DhtCluster " + name + " does not exist in namespace " + namespace + "; waiting for it");
    }
    String image = cluster.get().getSpec() == null ? null : cluster.get().getSpec().getImage();
    image = image == null || image.isBlank() ? defaultImage : image;
    var refused = policy.images().check("its spec.image", image, defaultImage);
    if (refused.isPresent()) {
      return notReady(
          refused.get().reason(),
          "DhtCluster "
              + name
              + ": "
              + refused.get().message()
              + "; the load generators would run it");
    }
    var status = cluster.get().getStatus();
    List<Condition> conditions = status == null ? List.of() : status.getConditions();
    if (!Conditions.isTrue(conditions, Conditions.READY)) {
      String detail =
          Conditions.find(conditions, Conditions.READY)
              .map(c -> ": " + c.getMessage())
              .orElse(": no Ready condition yet");
      return notReady(
          CLUSTER_NOT_READY, "DhtCluster " + name + " is not Ready" + detail + "; waiting for it");
    }
    boolean tls = status.getTransport() == Transport.Tls;
    String url =
        (tls ? "https://" : "http://") + name + "." + namespace + ".svc:" + ClusterModel.PORT;
    return new Target(
        true,
        url,
        image,
        CLUSTER_READY,
        "DhtCluster " + name + " is Ready; load goes to its client Service " + url,
        status.getMembers() == null ? List.of() : List.copyOf(status.getMembers()),
        name + "-secret",
        tls ? name + "-ca-cert" : null,
        status.getUsers() != null
                && status.getUsers().getAuthentication() == Authentication.Required
            ? GeneratorUser.name(test)
            : null);
  }

  /** This target, not ready yet for {@code reason}. */
  public Target waiting(String reason, String message) {
    return new Target(
        false, url, image, reason, message, nodes, secretName, caSecretName, userName);
  }

  private static Target notReady(String reason, String message) {
    return new Target(false, null, null, reason, message, List.of(), null, null, null);
  }
}
