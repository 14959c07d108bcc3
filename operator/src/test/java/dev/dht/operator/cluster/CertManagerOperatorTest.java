package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.tls.IssuerRef;
import dev.dht.operator.tls.NodeDnsNames;
import dev.dht.operator.tls.TlsReport;
import dev.dht.operator.users.Acl;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.users.DhtUserReconciler;
import dev.dht.operator.users.DhtUserSpec;
import dev.dht.operator.users.Operation;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.Pem;
import dev.dht.pki.Signatures;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * spec.tls.issuerRef against a real kube-apiserver and a real cert-manager controller ({@link
 * CertManager}): a CA Issuer signs the node certificate, nothing starts before it did, a Secret of
 * that name made before is not adopted, and the choice is made at creation.
 */
class CertManagerOperatorTest {
  static final Duration TIMEOUT = Duration.ofSeconds(90);

  static {
    // before the extension applies them (see TestCrds)
    TestCrds.forceApply(DhtCluster.class, DhtUser.class);
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  () -> "local/dht-node:it",
                  ImagePull.DEFAULT,
                  new NodeAdmin(UnaryOperator.identity())))
          .withReconciler(new DhtUserReconciler())
          .build();

  static KubernetesClient client;
  static String ns;
  static CertManager certManager;

  @BeforeAll
  static void startCertManager() throws Exception {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    certManager = CertManager.start(client, ns);
    // cert-manager's usual bootstrap: a self-signed root, and a CA Issuer that signs with it
    apply(
        """
        apiVersion: cert-manager.io/v1
        kind: Issuer
        metadata: {name: self-signed}
        spec: {selfSigned: {}}
        ---
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata: {name: root}
        spec:
          isCA: true
          commonName: test root
          secretName: root
          privateKey: {algorithm: ECDSA, size: 256}
          issuerRef: {name: self-signed, kind: Issuer}
        """);
    awaitUntil(() -> secret("root") != null);
    apply(caIssuer("team-ca"));
  }

  @AfterAll
  static void stopCertManager() throws Exception {
    if (certManager != null) {
      certManager.close();
    }
  }

  @Test
  void anIssuerSignsTheNodeCertificateAndClientsGetItsCa() throws Exception {
    var cluster = create("cm-a", "team-ca");
    var status = awaitStatus("cm-a", s -> conditionIs(s, "True", "CertificatesIssued"));
    await(StatefulSet.class, "cm-a");

    var certificate = certificate("cm-a-node-tls");
    assertThat(certificate.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid, OwnerReference::getController)
        .containsExactly(tuple(cluster.getMetadata().getUid(), true));
    var nodeTls = secret("cm-a-node-tls");
    var caCert = secret("cm-a-ca-cert");
    var root = Pem.parseCertificate(text(secret("root"), "tls.crt"));
    assertThat(text(nodeTls, "ca.crt")).isEqualTo(text(caCert, "ca.crt"));
    assertThat(Pem.parseCertificate(text(caCert, "ca.crt"))).isEqualTo(root);
    assertThat(caCert.getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid)
        .containsExactly(cluster.getMetadata().getUid());
    assertThat(secret("cm-a-ca")).as("no CA of the operator's").isNull();

    var leaf = Pem.parseCertificate(text(nodeTls, "tls.crt"));
    validate(leaf, root);
    assertThat(text(nodeTls, "tls.key")).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(Signatures.keyMatches(leaf, Pem.parsePrivateKey(text(nodeTls, "tls.key")))).isTrue();
    assertThat(CertificateInfo.of(leaf).dnsNames())
        .containsExactlyInAnyOrderElementsOf(NodeDnsNames.of("cm-a-peers", "cm-a", ns));
    assertThat(leaf.getExtendedKeyUsage())
        .containsExactlyInAnyOrder("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");

    assertThat(status.getTls().getIssuer()).isEqualTo("Issuer/team-ca");
    assertThat(status.getTls().getCaFingerprint()).isEqualTo(CertificateInfo.fingerprint(root));
    assertThat(status.getTls().getCertificateNotAfter())
        .isEqualTo(leaf.getNotAfter().toInstant().toString());
  }

  @Test
  void anIssuerWithAnIntermediateCaWritesTheChainAndTheNodesStillStart() throws Exception {
    apply(
        """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata: {name: intermediate}
        spec:
          isCA: true
          commonName: test intermediate
          secretName: intermediate
          privateKey: {algorithm: ECDSA, size: 256}
          issuerRef: {name: team-ca, kind: Issuer}
        """);
    awaitUntil(() -> secret("intermediate") != null);
    apply(
        """
        apiVersion: cert-manager.io/v1
        kind: Issuer
        metadata: {name: intermediate-ca}
        spec: {ca: {secretName: intermediate}}
        """);
    create("cm-f", "intermediate-ca");
    awaitStatus("cm-f", s -> conditionIs(s, "True", "CertificatesIssued"));
    await(StatefulSet.class, "cm-f");
    var chain = Pem.parseCertificates(text(secret("cm-f-node-tls"), "tls.crt"));
    assertThat(chain).as("the leaf, then the intermediate").hasSizeGreaterThanOrEqualTo(2);
    assertThat(CertificateInfo.of(chain.get(1)).commonName()).isEqualTo("test intermediate");
  }

  @Test
  void noNodeStartsBeforeTheIssuerSigned() {
    create("cm-b", "later-ca");
    var status = awaitStatus("cm-b", s -> conditionIs(s, "False", "CertificatePending"));
    assertThat(condition(status).getMessage())
        .contains("waiting for cert-manager Issuer/later-ca")
        .contains("Secret cm-b-node-tls");
    assertThat(client.apps().statefulSets().inNamespace(ns).withName("cm-b").get()).isNull();

    apply(caIssuer("later-ca"));
    awaitStatus("cm-b", s -> conditionIs(s, "True", "CertificatesIssued"));
    await(StatefulSet.class, "cm-b");

    // another issuer of the same CA: the Certificate follows, cert-manager issues again
    var before = text(secret("cm-b-node-tls"), "tls.crt");
    awaitUntil(() -> {
      client
          .resources(DhtCluster.class)
          .inNamespace(ns)
          .withName("cm-b")
          .edit(c -> { // a conflict with the operator's status writes is retried
            c.getSpec().getTls().getIssuerRef().setName("team-ca");
            return c;
          });
      return true;
    });
    awaitStatus(
        "cm-b",
        s ->
            "Issuer/team-ca".equals(s.getTls().getIssuer())
                && conditionIs(s, "True", "CertificatesIssued"));
    awaitUntil(() -> !text(secret("cm-b-node-tls"), "tls.crt").equals(before));
    assertThat(secret("cm-b-node-tls").getMetadata().getAnnotations())
        .containsEntry("cert-manager.io/issuer-name", "team-ca");
  }

  @Test
  void aSecretOfThatNameMadeBeforeIsNotAdopted() {
    var planted =
        client
            .resource(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName("cm-c-node-tls")
                    .withNamespace(ns)
                    .withAnnotations(Map.of("cert-manager.io/certificate-name", "cm-c-node-tls"))
                    .endMetadata()
                    .withType("kubernetes.io/tls")
                    .withStringData(Map.of("tls.crt", "mine", "tls.key", "mine", "ca.crt", "mine"))
                    .build())
            .create();
    create("cm-c", "team-ca");
    var status = awaitStatus("cm-c", s -> conditionIs(s, "False", "SecretNotOwned"));
    assertThat(condition(status).getMessage()).contains("Secret cm-c-node-tls");
    assertThat(certificate("cm-c-node-tls")).as("no Certificate asked for").isNull();
    assertThat(client.apps().statefulSets().inNamespace(ns).withName("cm-c").get()).isNull();
    assertThat(secret("cm-c-node-tls").getData()).isEqualTo(planted.getData());
  }

  @Test
  void aUsersClientCertificateComesFromTheIssuerToo() throws Exception {
    create("cm-e", "team-ca");
    awaitStatus("cm-e", s -> conditionIs(s, "True", "CertificatesIssued"));
    var user = new DhtUser();
    user.setMetadata(new ObjectMetaBuilder().withName("reader").withNamespace(ns).build());
    user.setSpec(
        DhtUserSpec.builder()
            .cluster("cm-e")
            .acls(List.of(Acl.of("r/", Operation.Read)))
            .clientCertificate(true)
            .build());
    user = client.resource(user).create();

    awaitUntil(() -> secret("reader-tls") != null && secret("reader-tls").getData() != null);
    assertThat(certificate("reader-tls").getMetadata().getOwnerReferences())
        .extracting(OwnerReference::getUid, OwnerReference::getController)
        .containsExactly(tuple(user.getMetadata().getUid(), true));
    var secret = secret("reader-tls");
    var leaf = Pem.parseCertificate(text(secret, "tls.crt"));
    validate(leaf, Pem.parseCertificate(text(secret("root"), "tls.crt")));
    String commonName =
        "dht-user.reader." + user.getMetadata().getUid().replace("-", "").substring(0, 8);
    assertThat(CertificateInfo.of(leaf).commonName()).isEqualTo(commonName);
    assertThat(leaf.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
    assertThat(text(secret, "tls.key")).startsWith("-----BEGIN PRIVATE KEY-----");

    awaitUntil(() -> {
      var users = text(secret("cm-e-users"), "users.json");
      return users.contains("\"certificateCommonName\":\"" + commonName + "\"");
    });
    awaitUntil(() -> {
      var status =
          client.resources(DhtUser.class).inNamespace(ns).withName("reader").get().getStatus();
      return "reader-tls".equals(status.getCertificateSecret())
          && Conditions.isTrue(status.getConditions(), Conditions.READY);
    });
  }

  @Test
  void theCertificatesSourceIsChosenWhenTheClusterIsCreated() {
    var cluster = Clusters.cluster("cm-d", ns, 3);
    cluster.getMetadata().setGeneration(null);
    var created = client.resource(cluster).create();
    created.getSpec().getTls().setIssuerRef(IssuerRef.builder().name("team-ca").build());
    assertThatThrownBy(() -> client.resource(created).update())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.tls.issuerRef is chosen when the cluster is created");
  }

  private static String caIssuer(String name) {
    return """
    apiVersion: cert-manager.io/v1
    kind: Issuer
    metadata: {name: %s}
    spec: {ca: {secretName: root}}
    """
        .formatted(name);
  }

  private static void apply(String yaml) {
    var items =
        client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items();
    for (var item : items) {
      client.resource(item).inNamespace(ns).create();
    }
  }

  private static DhtCluster create(String name, String issuer) {
    var cluster = Clusters.cluster(name, ns, 3);
    cluster.getMetadata().setGeneration(null);
    cluster.getMetadata().setAnnotations(new HashMap<>());
    var scheduling = new Scheduling(); // never scheduled, even when a kubelet runs
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    cluster.getSpec().getTls().setIssuerRef(IssuerRef.builder().name(issuer).build());
    return client.resource(cluster).create();
  }

  private static GenericKubernetesResource certificate(String name) {
    return client
        .genericKubernetesResources("cert-manager.io/v1", "Certificate")
        .inNamespace(ns)
        .withName(name)
        .get();
  }

  private static Secret secret(String name) {
    return client.secrets().inNamespace(ns).withName(name).get();
  }

  private static String text(Secret secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }

  private static void validate(X509Certificate leaf, X509Certificate ca) throws Exception {
    var path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf));
    var parameters = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
    parameters.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX").validate(path, parameters);
  }

  private static Condition condition(DhtClusterStatus status) {
    return Conditions.find(status.getConditions(), TlsReport.CONDITION).orElseThrow();
  }

  private static boolean conditionIs(DhtClusterStatus status, String value, String reason) {
    return Conditions.find(status.getConditions(), TlsReport.CONDITION)
        .filter(c -> c.getStatus().equals(value) && c.getReason().equals(reason))
        .isPresent();
  }

  private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> void await(
      Class<T> type, String name) {
    awaitUntil(() -> client.resources(type).inNamespace(ns).withName(name).get() != null);
  }

  private static void awaitUntil(Callable<Boolean> condition) {
    Awaitility.await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(condition);
  }

  private static DhtClusterStatus awaitStatus(String name, Predicate<DhtClusterStatus> condition) {
    awaitUntil(() -> {
      var status =
          client.resources(DhtCluster.class).inNamespace(ns).withName(name).get().getStatus();
      return status != null && condition.test(status);
    });
    return client.resources(DhtCluster.class).inNamespace(ns).withName(name).get().getStatus();
  }
}
