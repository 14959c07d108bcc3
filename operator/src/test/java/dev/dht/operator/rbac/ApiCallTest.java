package dev.dht.operator.rbac;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Requests named as the authorizer names them, and rules judging them: pure. */
class ApiCallTest {
  private static ApiCall call(String method, String uri) {
    return ApiCall.of(method, URI.create("https://127.0.0.1:6443" + uri), 200);
  }

  @Test
  void namesTheVerbOfEachMethodOnACollectionOrAnObject() {
    assertThat(call("GET", "/api/v1/namespaces/a/pods/p").verb()).isEqualTo("get");
    assertThat(call("GET", "/api/v1/namespaces/a/pods?labelSelector=x%3Dy").verb())
        .isEqualTo("list");
    assertThat(call("GET", "/api/v1/namespaces/a/pods?watch=true&resourceVersion=1").verb())
        .isEqualTo("watch");
    assertThat(call("POST", "/api/v1/namespaces/a/pods").verb()).isEqualTo("create");
    assertThat(call("PUT", "/api/v1/namespaces/a/pods/p").verb()).isEqualTo("update");
    assertThat(call("PATCH", "/api/v1/namespaces/a/pods/p").verb()).isEqualTo("patch");
    assertThat(call("DELETE", "/api/v1/namespaces/a/pods/p").verb()).isEqualTo("delete");
    assertThat(call("DELETE", "/api/v1/namespaces/a/pods").verb()).isEqualTo("deletecollection");
  }

  @Test
  void namesGroupResourceSubresourceNamespaceAndName() {
    var eviction = call("POST", "/api/v1/namespaces/a/pods/p-0/eviction");
    assertThat(eviction.permission()).isEqualTo("create pods/eviction");
    assertThat(eviction.namespace()).isEqualTo("a");
    assertThat(eviction.name()).isEqualTo("p-0");

    var status = call("PATCH", "/apis/dht.dev/v1alpha1/namespaces/a/dhtclusters/c/status");
    assertThat(status.permission()).isEqualTo("patch dht.dev/dhtclusters/status");

    var all = call("GET", "/apis/apps/v1/statefulsets?watch=1");
    assertThat(all.permission()).isEqualTo("watch apps/statefulsets");
    assertThat(all.namespace()).as("all namespaces").isNull();

    var namespace = call("DELETE", "/api/v1/namespaces/a");
    assertThat(namespace.permission()).isEqualTo("delete namespaces");
    assertThat(namespace.name()).isEqualTo("a");
    assertThat(namespace.namespace()).isNull();

    var secrets =
        call(
            "GET",
            "/api/v1/namespaces/a/secrets?labelSelector=app.kubernetes.io%2Fmanaged-by%3Ddht-operator");
    assertThat(secrets.labelSelector()).isEqualTo("app.kubernetes.io/managed-by=dht-operator");
  }

  @Test
  void aPatchOrAnUpdateThatCreatedIsACreateAsWell() {
    String uri = "https://127.0.0.1:6443/apis/apps/v1/namespaces/a/statefulsets/s";
    assertThat(ApiCall.of("PATCH", URI.create(uri), 201).verbs())
        .containsExactly("patch", "create");
    assertThat(ApiCall.of("PUT", URI.create(uri), 201).verbs()).containsExactly("update", "create");
    assertThat(ApiCall.of("PATCH", URI.create(uri), 200).verbs()).containsExactly("patch");

    var patchOnly =
        new RbacRule(List.of("apps"), List.of("statefulsets"), List.of("patch"), null, "a");
    var createOnly =
        new RbacRule(List.of("apps"), List.of("statefulsets"), List.of("create"), null, "a");
    var applied = ApiCall.of("PATCH", URI.create(uri), 201);
    assertThat(allows(patchOnly, applied)).as("the create is refused").isFalse();
    assertThat(createOnly.covers(applied)).as("a create rule is used by it").isTrue();
  }

  @Test
  void discoveryIsNoResource() {
    var discovery = call("GET", "/apis/dht.dev/v1alpha1");
    assertThat(discovery.isResource()).isFalse();
    assertThat(discovery.path()).isEqualTo("/apis/dht.dev/v1alpha1");
    assertThat(call("GET", "/version").isResource()).isFalse();
  }

  @Test
  void aRuleAllowsItsVerbsOnItsResourcesWhereItIsGranted() {
    var rule =
        new RbacRule(List.of(""), List.of("pods", "pods/log"), List.of("get", "list"), null, "a");
    assertThat(allows(rule, call("GET", "/api/v1/namespaces/a/pods/p/log"))).isTrue();
    assertThat(allows(rule, call("GET", "/api/v1/namespaces/a/pods"))).isTrue();
    assertThat(allows(rule, call("PATCH", "/api/v1/namespaces/a/pods/p"))).as("verb").isFalse();
    assertThat(allows(rule, call("POST", "/api/v1/namespaces/a/pods/p/eviction")))
        .as("another subresource")
        .isFalse();
    assertThat(allows(rule, call("GET", "/api/v1/namespaces/b/pods"))).as("namespace").isFalse();
    assertThat(allows(rule, call("GET", "/api/v1/pods"))).as("all namespaces").isFalse();
    assertThat(rule.covers(call("GET", "/api/v1/namespaces/b/pods")))
        .as("of the rule's kind anywhere")
        .isTrue();
    assertThat(allows(rule, call("GET", "/apis/apps/v1/namespaces/a/pods"))).as("group").isFalse();

    var everywhere = new RbacRule(List.of(""), List.of("pods"), List.of("list"), null, null);
    assertThat(allows(everywhere, call("GET", "/api/v1/pods"))).isTrue();
  }

  @Test
  void aRuleWithNamesAllowsOnlyThoseObjectsAndNoCreate() {
    var rule =
        new RbacRule(
            List.of("coordination.k8s.io"),
            List.of("leases"),
            List.of("get", "create"),
            List.of("dht-operator"),
            "a");
    var lease = "/apis/coordination.k8s.io/v1/namespaces/a/leases";
    assertThat(allows(rule, call("GET", lease + "/dht-operator"))).isTrue();
    assertThat(allows(rule, call("GET", lease + "/other"))).isFalse();
    assertThat(allows(rule, call("POST", lease))).as("a create names no object").isFalse();
  }

  /** Whether {@code rule} alone lets every verb of {@code call} through. */
  private static boolean allows(RbacRule rule, ApiCall call) {
    return call.verbs().stream().allMatch(verb -> rule.allows(call, verb));
  }

  @Test
  void singlesSplitARulePerVerbGroupAndResource() {
    var rule =
        new RbacRule(
            List.of("dht.dev"),
            List.of("dhtclusters/status", "dhtloadtests/status"),
            List.of("get", "patch"),
            null,
            "a");
    assertThat(rule.singles())
        .extracting(RbacRule::permission)
        .containsExactly(
            "get dht.dev/dhtclusters/status",
            "patch dht.dev/dhtclusters/status",
            "get dht.dev/dhtloadtests/status",
            "patch dht.dev/dhtloadtests/status");
  }
}
