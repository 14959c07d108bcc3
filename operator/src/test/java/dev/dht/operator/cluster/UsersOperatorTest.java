package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.loadtest.DhtLoadTest;
import dev.dht.operator.loadtest.DhtLoadTestSpec;
import dev.dht.operator.loadtest.job.GeneratorUser;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.tls.TlsSpec;
import dev.dht.operator.users.Acl;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.users.DhtUserReconciler;
import dev.dht.operator.users.DhtUserSpec;
import dev.dht.operator.users.Operation;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.Pem;
import dev.dht.pki.Signatures;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DhtUsers against a real kube-apiserver (k8s-local {@code ensure.sh api}): a user's token Secret,
 * the users file of its cluster with the token's hash, a new token and a deleted user each in a new
 * revision, and Secrets of those names made by someone else left alone. The nodes' side (the push,
 * 401/403) is the node's tests' and the e2e's.
 */
class UsersOperatorTest {
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  static {
    TestCrds.forceApply(DhtCluster.class, DhtUser.class, DhtLoadTest.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  "local/dht-node:it", new NodeAdmin(UnaryOperator.identity())))
          .withReconciler(new DhtUserReconciler())
          .oneNamespacePerClass(true)
          .build();

  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void connect() {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
  }

  @Test
  void aUsersTokenReachesItsClustersUsersFileAndANewTokenOrADeletedUserANewRevision()
      throws Exception {
    createCluster("users-a");
    var user = createUser("app", "users-a");

    var secret = awaitSecret("app-token");
    assertThat(secret.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(user.getMetadata().getUid()));
    String token = text(secret, "token");
    assertThat(token).hasSizeGreaterThanOrEqualTo(43); // 256 bits, base64url

    var first = awaitUsers("users-a", doc -> doc.get("users").size() == 1);
    assertThat(first.get("authentication").asText()).isEqualTo("required");
    var entry = first.get("users").get(0);
    assertThat(entry.get("name").asText()).isEqualTo("app");
    assertThat(entry.get("tokenSha256").asText()).isEqualTo(sha256(token));
    assertThat(entry.get("acls").get(0).get("prefix").asText()).isEqualTo("app/");
    assertThat(first.toString()).doesNotContain(token);
    awaitUntil(() -> {
      var u = client.resources(DhtUser.class).inNamespace(ns).withName("app").get();
      return Conditions.isTrue(u.getStatus().getConditions(), Conditions.READY)
          && "app-token".equals(u.getStatus().getSecret());
    });
    var status = awaitCluster("users-a", s -> s.getUsers() != null && s.getUsers().getUsers() == 1);
    assertThat(status.getUsers().getRevision()).isEqualTo(first.get("revision").asLong());

    // a new token: delete the Secret
    client.secrets().inNamespace(ns).withName("app-token").delete();
    var rotated =
        awaitUsers(
            "users-a",
            doc ->
                doc.get("users").size() == 1
                    && !doc.get("users").get(0).get("tokenSha256").asText().equals(sha256(token)));
    assertThat(rotated.get("revision").asLong()).isGreaterThan(first.get("revision").asLong());
    String newToken = text(awaitSecret("app-token"), "token");
    assertThat(rotated.get("users").get(0).get("tokenSha256").asText()).isEqualTo(sha256(newToken));

    // revoked: the user goes
    client.resources(DhtUser.class).inNamespace(ns).withName("app").delete();
    var revoked = awaitUsers("users-a", doc -> doc.get("users").isEmpty());
    assertThat(revoked.get("revision").asLong()).isGreaterThan(rotated.get("revision").asLong());
  }

  @Test
  void aSecretOfAUsersNameMadeBySomeoneElseIsNeitherUsedNorChanged() {
    createCluster("users-b");
    client
        .secrets()
        .inNamespace(ns)
        .resource(foreign("taken-token", Map.of("token", "planted")))
        .create();
    createUser("taken", "users-b");

    awaitUntil(() -> {
      var u = client.resources(DhtUser.class).inNamespace(ns).withName("taken").get();
      return u.getStatus() != null
          && Conditions.find(u.getStatus().getConditions(), Conditions.READY)
              .filter(c -> "SecretNotOwned".equals(c.getReason()))
              .isPresent();
    });
    var doc = awaitUsers("users-b", d -> true);
    assertThat(doc.get("users")).isEmpty();
    assertThat(text(client.secrets().inNamespace(ns).withName("taken-token").get(), "token"))
        .isEqualTo("planted");
  }

  @Test
  void aUsersFileMadeBySomeoneElseStopsTheClusterBeforeItsPodsCouldMountIt() {
    client
        .secrets()
        .inNamespace(ns)
        .resource(foreign("users-c-users", Map.of("users.json", "{\"revision\":99}")))
        .create();
    createCluster("users-c");
    var status =
        awaitCluster(
            "users-c",
            s ->
                Conditions.find(s.getConditions(), ClusterUsers.CONDITION)
                    .filter(c -> "SecretNotOwned".equals(c.getReason()))
                    .isPresent());
    assertThat(status).isNotNull();
    assertThat(client.apps().statefulSets().inNamespace(ns).withName("users-c").get()).isNull();
    assertThat(text(client.secrets().inNamespace(ns).withName("users-c-users").get(), "users.json"))
        .isEqualTo("{\"revision\":99}");
  }

  @Test
  void aLoadTestOnAClusterThatDemandsTokensGetsAUserOfItsOwnUntilItEnds() {
    createCluster("users-d");
    var test = new DhtLoadTest();
    test.setMetadata(new ObjectMetaBuilder().withName("lt").withNamespace(ns).build());
    test.setSpec(
        DhtLoadTestSpec.builder()
            .clusterRef(new DhtLoadTestSpec.ClusterRef("users-d"))
            .rate(10)
            .build());
    var made = client.resource(test).create();
    var operatorClient = OPERATOR.getKubernetesClient(); // the chart's rights, recorded
    java.util.function.Supplier<String> waiting =
        () ->
            GeneratorUser.notReady(
                operatorClient,
                made,
                client.resources(DhtCluster.class).inNamespace(ns).withName("users-d").get(),
                "lt-");
    assertThat(waiting.get()).contains("made for the generators");

    var user = client.resources(DhtUser.class).inNamespace(ns).withName("lt-loadgen").get();
    assertThat(user.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(made.getMetadata().getUid()));
    assertThat(user.getSpec().getAcls())
        .singleElement()
        .satisfies(acl -> {
          assertThat(acl.getPrefix()).isEqualTo("lt-");
          assertThat(acl.getOperations())
              .containsExactlyInAnyOrder(
                  Operation.Read, Operation.Write, Operation.Delete, Operation.Range);
        });
    awaitUntil(() -> waiting.get() == null); // its token in the file, no node behind
    String token = text(awaitSecret("lt-loadgen-token"), "token");
    assertThat(awaitUsers("users-d", d -> d.get("users").size() == 1).toString())
        .contains(sha256(token));

    GeneratorUser.revoke(operatorClient, made);
    awaitUsers("users-d", d -> d.get("users").isEmpty());
  }

  @Test
  void aUserWithAClientCertificateGetsOneFromTheClustersCaAndTheNodesAdmitItsName()
      throws Exception {
    var cluster = Clusters.cluster("users-e", ns, 3);
    cluster.getMetadata().setGeneration(null);
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    client.resource(cluster).create(); // TLS, the default
    var user = createUser("cert", "users-e");
    awaitUntil(() -> {
      client
          .resources(DhtUser.class)
          .inNamespace(ns)
          .withName("cert")
          .edit(u -> { // a conflict with the operator's status writes is retried
            u.getSpec().setClientCertificate(true);
            return u;
          });
      return true;
    });

    var secret = awaitSecret("cert-tls");
    assertThat(secret.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(secret.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(user.getMetadata().getUid()));
    var leaf = Pem.parseCertificate(text(secret, "tls.crt"));
    var ca = Pem.parseCertificate(text(awaitSecret("users-e-ca"), "ca.crt"));
    assertThat(Signatures.issuedBy(leaf, ca)).isTrue();
    assertThat(Signatures.keyMatches(leaf, Pem.parsePrivateKey(text(secret, "tls.key")))).isTrue();
    String commonName =
        "dht-user.cert." + user.getMetadata().getUid().replace("-", "").substring(0, 8);
    assertThat(CertificateInfo.of(leaf).commonName()).isEqualTo(commonName);
    assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(text(secret, "ca.crt")).isEqualTo(text(awaitSecret("users-e-ca-cert"), "ca.crt"));

    var doc = awaitUsers("users-e", d -> d.get("users").size() == 1);
    assertThat(doc.get("users").get(0).get("certificateCommonName").asText()).isEqualTo(commonName);
    awaitUntil(() -> {
      var u = client.resources(DhtUser.class).inNamespace(ns).withName("cert").get();
      return "cert-tls".equals(u.getStatus().getCertificateSecret())
          && Conditions.isTrue(u.getStatus().getConditions(), Conditions.READY);
    });

    // a CA rotation: the user's certificate is issued again, by the new CA
    awaitUntil(() -> {
      client
          .resources(DhtCluster.class)
          .inNamespace(ns)
          .withName("users-e")
          .edit(c -> {
            var annotations = new java.util.HashMap<String, String>();
            if (c.getMetadata().getAnnotations() != null) {
              annotations.putAll(c.getMetadata().getAnnotations());
            }
            annotations.put("dht.dev/rotate-ca", "now");
            c.getMetadata().setAnnotations(annotations);
            return c;
          });
      return true;
    });
    awaitUntil(() -> {
      var newCa = Pem.parseCertificate(text(awaitSecret("users-e-ca"), "ca.crt"));
      var renewed = Pem.parseCertificate(text(awaitSecret("cert-tls"), "tls.crt"));
      return !newCa.equals(ca) && Signatures.issuedBy(renewed, newCa);
    });
  }

  private static void createCluster(String name) {
    var cluster = Clusters.cluster(name, ns, 3);
    cluster.getMetadata().setGeneration(null);
    cluster.getSpec().setTls(TlsSpec.builder().enabled(false).build());
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    client.resource(cluster).create();
  }

  private static DhtUser createUser(String name, String cluster) {
    var user = new DhtUser();
    user.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    user.setSpec(
        DhtUserSpec.builder()
            .cluster(cluster)
            .acls(List.of(Acl.of("app/", Operation.Read, Operation.Write)))
            .build());
    return client.resource(user).create();
  }

  private static Secret foreign(String name, Map<String, String> data) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withStringData(data)
        .build();
  }

  private static JsonNode awaitUsers(String cluster, java.util.function.Predicate<JsonNode> test) {
    JsonNode[] found = new JsonNode[1];
    awaitUntil(() -> {
      var secret = client.secrets().inNamespace(ns).withName(cluster + "-users").get();
      var doc = new ObjectMapper().readTree(text(secret, "users.json"));
      found[0] = doc;
      return test.test(doc);
    });
    return found[0];
  }

  private static DhtClusterStatus awaitCluster(
      String name, java.util.function.Predicate<DhtClusterStatus> test) {
    awaitUntil(() -> {
      var status =
          client.resources(DhtCluster.class).inNamespace(ns).withName(name).get().getStatus();
      return status != null && test.test(status);
    });
    return client.resources(DhtCluster.class).inNamespace(ns).withName(name).get().getStatus();
  }

  private static Secret awaitSecret(String name) {
    awaitUntil(() -> client.secrets().inNamespace(ns).withName(name).get() != null);
    return client.secrets().inNamespace(ns).withName(name).get();
  }

  private static void awaitUntil(Callable<Boolean> condition) {
    Awaitility.await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(condition);
  }

  private static String text(Secret secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
