package dev.dht.operator.loadtest.site;

import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;

/**
 * Readers of the report site on the test apiserver: ServiceAccounts, their tokens (TokenRequest, as
 * {@code kubectl create token} asks) and Roles that let them get load tests.
 */
public final class SiteReaders {
  private SiteReaders() {}

  /** A token of the ServiceAccount {@code name} in {@code ns}, made first if missing. */
  public static String token(KubernetesClient client, String ns, String name) {
    var accounts = client.serviceAccounts().inNamespace(ns);
    if (accounts.withName(name).get() == null) {
      accounts
          .resource(
              new ServiceAccountBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
    }
    return accounts
        .withName(name)
        .tokenRequest(
            new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L).endSpec().build())
        .getStatus()
        .getToken();
  }

  /**
   * Lets the ServiceAccount get dhtloadtests in {@code ns} (only those {@code names}, if any), and
   * waits until the apiserver's authorizer says so: a refusal asked too early would be remembered.
   */
  public static void mayGet(KubernetesClient client, String ns, String name, String... names) {
    String role = "read-load-tests-" + name;
    client
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName(role)
                .withNamespace(ns)
                .endMetadata()
                .addNewRule()
                .withApiGroups("dht.dev")
                .withResources("dhtloadtests")
                .withResourceNames(names)
                .withVerbs("get")
                .endRule()
                .build())
        .create();
    client
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName(role)
                .withNamespace(ns)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", role)
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName(name)
                .withNamespace(ns)
                .endSubject()
                .build())
        .create();
    awaitAllowed(client, ns, name, ns, names.length == 0 ? null : names[0]);
  }

  /**
   * Waits until the ServiceAccount {@code name} of {@code ns} may get the dhtloadtest {@code test}
   * (null: any) in {@code namespace}: RBAC objects take effect a moment after they are written.
   */
  public static void awaitAllowed(
      KubernetesClient client, String ns, String name, String namespace, String test) {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!allowed(client, "system:serviceaccount:" + ns + ":" + name, namespace, test)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(name + " may still not get dhtloadtests after 30 s");
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private static boolean allowed(
      KubernetesClient client, String user, String namespace, String test) {
    var review =
        client
            .authorization()
            .v1()
            .subjectAccessReview()
            .create(
                new SubjectAccessReviewBuilder()
                    .withNewSpec()
                    .withUser(user)
                    .withGroups(List.of("system:serviceaccounts", "system:authenticated"))
                    .withNewResourceAttributes()
                    .withVerb("get")
                    .withGroup("dht.dev")
                    .withResource("dhtloadtests")
                    .withNamespace(namespace)
                    .withName(test)
                    .endResourceAttributes()
                    .endSpec()
                    .build());
    return Boolean.TRUE.equals(review.getStatus().getAllowed());
  }
}
