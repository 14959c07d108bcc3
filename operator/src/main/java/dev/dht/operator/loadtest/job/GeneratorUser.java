package dev.dht.operator.loadtest.job;

import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.kube.SecretTexts;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.users.Acl;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.users.DhtUserSpec;
import dev.dht.operator.users.Operation;
import dev.dht.operator.users.UserSecret;
import dev.dht.operator.users.UsersFile;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;

/**
 * The DhtUser a load test's generators authenticate as on a cluster that demands credentials: named
 * after the test, owned by it, allowed everything on the test's key prefix and nothing else, so
 * that a load test never touches other keys. The Job starts once every node of the cluster holds
 * its token; the user is deleted when the test finishes (its token then refused). Its requests pay
 * for the token check like any client's, so the report shows that cost.
 */
public final class GeneratorUser {
  private static final String SUFFIX = "-loadgen";

  private GeneratorUser() {}

  /** The user's name (and its Secret's): the test's, cut to fit a DNS label, and -loadgen. */
  public static String name(DhtLoadTest test) {
    String base = test.getMetadata().getName();
    int room = 63 - SUFFIX.length();
    return (base.length() > room ? base.substring(0, room) : base) + SUFFIX;
  }

  /** The user as the test wants it. Pure. */
  static DhtUser desired(DhtLoadTest test, String cluster, String keyPrefix) {
    var user = new DhtUser();
    user.setMetadata(
        new ObjectMetaBuilder()
            .withName(name(test))
            .withNamespace(test.getMetadata().getNamespace())
            .withLabels(
                Map.of(
                    "app.kubernetes.io/name",
                    "dht",
                    "dht.dev/load-test",
                    test.getMetadata().getName()))
            .withOwnerReferences(List.of(Owners.controller(test)))
            .build());
    user.setSpec(
        DhtUserSpec.builder()
            .cluster(cluster)
            .acls(
                List.of(
                    Acl.of(
                        keyPrefix,
                        Operation.Read,
                        Operation.Write,
                        Operation.Delete,
                        Operation.Range)))
            .build());
    return user;
  }

  /**
   * Makes the user if it does not exist; null once every node of {@code cluster} holds its token,
   * else why the generators cannot start yet.
   */
  public static String notReady(
      KubernetesClient client, DhtLoadTest test, DhtCluster cluster, String keyPrefix) {
    String namespace = test.getMetadata().getNamespace();
    String name = name(test);
    var users = client.resources(DhtUser.class).inNamespace(namespace);
    var user = users.withName(name).get();
    if (user == null) {
      try {
        users.resource(desired(test, cluster.getMetadata().getName(), keyPrefix)).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
      return "DhtUser " + name + " made for the generators; waiting for its token";
    }
    if (!Owners.isControlledBy(user, test)) {
      return "a DhtUser named " + name + " exists and is not this test's: delete or rename it";
    }
    var token =
        UserSecret.token(
            client.secrets().inNamespace(namespace).withName(UserSecret.nameOf(name)).get(), user);
    if (token.isEmpty()) {
      return "waiting for the token of DhtUser " + name;
    }
    var file =
        client
            .secrets()
            .inNamespace(namespace)
            .withName(UsersFile.secretName(cluster.getMetadata().getName()))
            .get();
    String json =
        file == null || !Owners.isOwnedBy(file, cluster)
            ? null
            : SecretTexts.text(file, UsersFile.KEY);
    var status = cluster.getStatus() == null ? null : cluster.getStatus().getUsers();
    boolean held =
        json != null
            && UsersFile.admits(json, name, token.get())
            && status != null
            && status.getRevision() != null
            && status.getRevision() == UsersFile.revisionOf(json)
            && status.getNodesBehind() != null
            && status.getNodesBehind() == 0;
    return held
        ? null
        : "waiting for the nodes of DhtCluster "
            + cluster.getMetadata().getName()
            + " to hold the token of DhtUser "
            + name;
  }

  /** Deletes the test's user (its token is refused within seconds); nothing if there is none. */
  public static void revoke(KubernetesClient client, DhtLoadTest test) {
    var user =
        client
            .resources(DhtUser.class)
            .inNamespace(test.getMetadata().getNamespace())
            .withName(name(test));
    var found = user.get();
    if (found != null && Owners.isControlledBy(found, test)) {
      user.delete();
    }
  }
}
