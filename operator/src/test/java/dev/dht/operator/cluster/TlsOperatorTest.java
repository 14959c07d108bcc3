package dev.dht.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.dht.operator.TestCrds;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.tls.CertificatePolicy;
import dev.dht.operator.tls.NodeDnsNames;
import dev.dht.operator.tls.RotationPhase;
import dev.dht.operator.tls.TlsReport;
import dev.dht.operator.tls.TlsSpec;
import dev.dht.operator.users.DhtUser;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.Pem;
import dev.dht.pki.Signatures;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cluster's CA and certificates against a real kube-apiserver (k8s-local {@code ensure.sh
 * api}): the three Secrets a DhtCluster gets, a rotation through its steps, a Secret of the same
 * name made by someone else, and TLS turned off. A rotation's steps wait {@link #DELAY} here
 * instead of three minutes.
 */
class TlsOperatorTest {
  static final String IMAGE = "local/dht-node:it";
  static final Duration TIMEOUT = Duration.ofSeconds(60);
  static final Duration DELAY = Duration.ofSeconds(5);

  static {
    TestCrds.forceApply(
        DhtCluster.class, DhtUser.class); // before the extension applies them (see TestCrds)
  }

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(
              new DhtClusterReconciler(
                  () -> IMAGE,
                  ImagePull.DEFAULT,
                  new NodeAdmin(UnaryOperator.identity()),
                  CertificatePolicy.DEFAULT.withPropagationDelay(DELAY)))
          .build();

  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void connect() {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
  }

  @Test
  void aClusterGetsItsCaAndANodeCertificateForEveryNameOfTheNodes() throws Exception {
    var cluster = create("tls-a", spec -> {});
    var ca = await("tls-a-ca");
    var caCert = await("tls-a-ca-cert");
    var nodeTls = await("tls-a-node-tls");
    await(StatefulSet.class, "tls-a");

    for (var secret : List.of(ca, caCert, nodeTls)) {
      assertThat(secret.getMetadata().getOwnerReferences())
          .as("owner of %s", secret.getMetadata().getName())
          .extracting(
              OwnerReference::getUid, OwnerReference::getKind, OwnerReference::getController)
          .containsExactly(tuple(cluster.getMetadata().getUid(), "DhtCluster", true));
      assertThat(secret.getMetadata().getLabels())
          .containsEntry("app.kubernetes.io/instance", "tls-a")
          .containsEntry("app.kubernetes.io/name", "dht");
    }
    assertThat(ca.getData()).containsOnlyKeys("ca.crt", "ca.key");
    assertThat(caCert.getData()).containsOnlyKeys("ca.crt");
    assertThat(nodeTls.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(nodeTls.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
    assertThat(text(nodeTls, "tls.key")).startsWith("-----BEGIN PRIVATE KEY-----");
    assertThat(text(caCert, "ca.crt"))
        .isEqualTo(text(ca, "ca.crt"))
        .isEqualTo(text(nodeTls, "ca.crt"));

    var caCertificate = Pem.parseCertificate(text(caCert, "ca.crt"));
    var leaf = Pem.parseCertificate(text(nodeTls, "tls.crt"));
    validate(leaf, caCertificate);
    assertThat(Signatures.keyMatches(leaf, Pem.parsePrivateKey(text(nodeTls, "tls.key")))).isTrue();
    assertThat(CertificateInfo.of(leaf).dnsNames())
        .containsExactlyInAnyOrderElementsOf(NodeDnsNames.of("tls-a-peers", "tls-a", ns))
        .contains("*.tls-a-peers." + ns + ".svc", "tls-a." + ns + ".svc", "localhost");
    assertThat(leaf.getExtendedKeyUsage())
        .containsExactlyInAnyOrder("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");

    var status = awaitStatus("tls-a", s -> s.getTls() != null);
    String fingerprint = CertificateInfo.fingerprint(caCertificate);
    assertThat(status.getTls().getCaFingerprint()).isEqualTo(fingerprint);
    assertThat(status.getTls().getTrustedCaFingerprints()).containsExactly(fingerprint);
    assertThat(Instant.parse(status.getTls().getCertificateNotAfter()))
        .isEqualTo(leaf.getNotAfter().toInstant());
    assertThat(status.getTls().getRotationPhase()).isNull();
    var condition = condition(status);
    assertThat(condition.getStatus()).isEqualTo("True");
    assertThat(condition.getReason()).isEqualTo("CertificatesIssued");

    client.resource(cluster).delete();
    // kube-controller-manager's garbage collector follows the owner references
    awaitUntil(() ->
        get("tls-a-ca") == null && get("tls-a-ca-cert") == null && get("tls-a-node-tls") == null);
  }

  /**
   * What the Secrets hold at one moment of a rotation: the bundles' and the issuer's fingerprints,
   * the phase the status shows, the nodes' Secret's annotations.
   */
  record Snapshot(
      List<String> clientTrust,
      List<String> nodeTrust,
      String leafIssuer,
      RotationPhase phase,
      Map<String, String> nodeAnnotations) {
    Snapshot withoutPhase() {
      return new Snapshot(clientTrust, nodeTrust, leafIssuer, null, Map.of());
    }
  }

  @Test
  void theRotationAnnotationTakesTheStepsWithAnOverlap() throws Exception {
    create("tls-b", spec -> {});
    var before = awaitStatus("tls-b", s -> s.getTls() != null).getTls();
    String oldCa = before.getCaFingerprint();

    // the state before the annotation, taken before it: on a busy machine the first step may come
    // before the first look after it
    var seen = new ArrayList<Snapshot>();
    seen.add(snapshot("tls-b"));
    edit("tls-b", c -> c.getMetadata().getAnnotations().put("dht.dev/rotate-ca", "2026-06-01"));
    awaitUntil(() -> {
      var now = snapshot("tls-b");
      if (seen.isEmpty() || !seen.getLast().equals(now)) {
        seen.add(now);
      }
      return now.clientTrust().size() == 1
          && !now.clientTrust().contains(oldCa)
          && now.nodeTrust().equals(now.clientTrust())
          && now.leafIssuer().equals(now.clientTrust().getFirst())
          && now.phase() == null;
    });
    String newCa = seen.getLast().clientTrust().getFirst();
    // the Secrets' states in order, leaving out a look between the writes of the clients' and the
    // nodes' bundle, and the phase (the status may lag behind the Secrets it describes)
    var consistent = seen.stream().filter(s -> s.clientTrust().equals(s.nodeTrust())).toList();
    assertThat(consistent.stream().map(Snapshot::withoutPhase).distinct())
        .containsExactly(
            new Snapshot(List.of(oldCa), List.of(oldCa), oldCa, null, Map.of()),
            new Snapshot(List.of(newCa, oldCa), List.of(newCa, oldCa), oldCa, null, Map.of()),
            new Snapshot(List.of(newCa, oldCa), List.of(newCa, oldCa), newCa, null, Map.of()),
            new Snapshot(List.of(newCa), List.of(newCa), newCa, null, Map.of()));
    assertThat(seen)
        .extracting(Snapshot::phase)
        .contains(RotationPhase.NewCaTrusted, RotationPhase.CertificateReissued);

    // each step came a propagation delay after the one before, by the operator's own clock
    var trusted = first(consistent, s -> s.nodeTrust().size() == 2);
    var reissued = first(consistent, s -> s.leafIssuer().equals(newCa));
    var retired = consistent.getLast().nodeAnnotations();
    Instant bothTrusted = Instant.parse(trusted.get("dht.dev/trust-bundle-changed-at"));
    Instant newLeaf = Instant.parse(reissued.get("dht.dev/certificate-issued-at"));
    Instant oldGone = Instant.parse(retired.get("dht.dev/trust-bundle-changed-at"));
    assertThat(Duration.between(bothTrusted, newLeaf)).isGreaterThanOrEqualTo(DELAY);
    assertThat(Duration.between(newLeaf, oldGone)).isGreaterThanOrEqualTo(DELAY);

    var after = awaitStatus("tls-b", s -> newCa.equals(s.getTls().getCaFingerprint())).getTls();
    assertThat(after.getRotateCaHandled()).isEqualTo("2026-06-01");
    assertThat(after.getTrustedCaFingerprints()).containsExactly(newCa);
    assertThat(get("tls-b-ca").getMetadata().getAnnotations())
        .containsEntry("dht.dev/rotate-ca-handled", "2026-06-01");
    assertThat(get("tls-b-ca").getData()).doesNotContainKey("previous-ca.crt");
    validate(
        Pem.parseCertificate(text(get("tls-b-node-tls"), "tls.crt")),
        Pem.parseCertificate(text(get("tls-b-ca-cert"), "ca.crt")));
  }

  @Test
  void aSecretOfTheSameNameMadeBySomeoneElseIsNeverAdopted() {
    var foreign =
        client
            .resource(
                new SecretBuilder()
                    .withNewMetadata()
                    .withName("tls-c-ca")
                    .withNamespace(ns)
                    .endMetadata()
                    .addToStringData("ca.crt", "someone else's")
                    .build())
            .create();
    create("tls-c", spec -> {});
    var status =
        awaitStatus(
            "tls-c",
            s ->
                Conditions.find(s.getConditions(), TlsReport.CONDITION)
                    .map(c -> "SecretNotOwned".equals(c.getReason()))
                    .orElse(false));
    var condition = condition(status);
    assertThat(condition.getStatus()).isEqualTo("False");
    assertThat(condition.getMessage())
        .startsWith("Secret " + ns + "/tls-c-ca exists and was not made by the operator");
    assertThat(status.getTls()).isNull();
    assertThat(client.apps().statefulSets().inNamespace(ns).withName("tls-c").get())
        .as("no node mounts a Secret that is someone else's")
        .isNull();
    var untouched = get("tls-c-ca");
    assertThat(untouched.getMetadata().getResourceVersion())
        .isEqualTo(foreign.getMetadata().getResourceVersion());
    assertThat(untouched.getMetadata().getOwnerReferences()).isEmpty();
    assertThat(get("tls-c-ca-cert")).as("nothing issued meanwhile").isNull();
    assertThat(get("tls-c-node-tls")).isNull();

    // once it is gone, the operator makes its own
    client.resource(untouched).delete();
    var issued =
        awaitStatus(
            "tls-c",
            s ->
                Conditions.find(s.getConditions(), TlsReport.CONDITION)
                    .map(c -> "True".equals(c.getStatus()))
                    .orElse(false));
    assertThat(issued.getTls().getCaFingerprint()).isNotBlank();
    assertThat(get("tls-c-ca").getMetadata().getOwnerReferences()).hasSize(1);
    await(StatefulSet.class, "tls-c");
  }

  @Test
  void tlsTurnedOffMakesNoSecrets() {
    create("tls-d", spec -> spec.setTls(TlsSpec.builder().enabled(false).build()));
    await(StatefulSet.class, "tls-d");
    var status = awaitStatus("tls-d", s -> s.getObservedGeneration() != null);
    assertThat(status.getTls()).isNull();
    assertThat(Conditions.find(status.getConditions(), TlsReport.CONDITION)).isEmpty();
    assertThat(get("tls-d-secret")).as("the shared secret is made as before").isNotNull();
    assertThat(List.of("tls-d-ca", "tls-d-ca-cert", "tls-d-node-tls"))
        .allSatisfy(name -> assertThat(get(name)).as(name).isNull());
  }

  // --- helpers ---

  private static Snapshot snapshot(String name) {
    var caCert = get(name + "-ca-cert");
    var nodeTls = get(name + "-node-tls");
    var cluster = client.resources(DhtCluster.class).inNamespace(ns).withName(name).get();
    var nodeTrust = fingerprints(text(nodeTls, "ca.crt"));
    var leaf = Pem.parseCertificate(text(nodeTls, "tls.crt"));
    var trusted = Pem.parseCertificates(text(nodeTls, "ca.crt"));
    String issuer =
        trusted.stream()
            .filter(ca -> Signatures.issuedBy(leaf, ca))
            .map(CertificateInfo::fingerprint)
            .findFirst()
            .orElse("none");
    var tls = cluster.getStatus() == null ? null : cluster.getStatus().getTls();
    return new Snapshot(
        fingerprints(text(caCert, "ca.crt")),
        nodeTrust,
        issuer,
        tls == null ? null : tls.getRotationPhase(),
        nodeTls.getMetadata().getAnnotations());
  }

  private static Map<String, String> first(
      List<Snapshot> seen, java.util.function.Predicate<Snapshot> which) {
    return seen.stream()
        .filter(which)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no such state in " + seen))
        .nodeAnnotations();
  }

  private static List<String> fingerprints(String pem) {
    return Pem.parseCertificates(pem).stream().map(CertificateInfo::fingerprint).toList();
  }

  private static void validate(X509Certificate leaf, X509Certificate ca) throws Exception {
    var path = CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf));
    var parameters = new PKIXParameters(Set.of(new TrustAnchor(ca, null)));
    parameters.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX").validate(path, parameters);
  }

  private static String text(Secret secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }

  private static Condition condition(DhtClusterStatus status) {
    return Conditions.find(status.getConditions(), TlsReport.CONDITION).orElseThrow();
  }

  private static DhtCluster create(String name, Consumer<DhtClusterSpec> spec) {
    var cluster = Clusters.cluster(name, ns, 3);
    cluster.getMetadata().setGeneration(null);
    cluster.getMetadata().setAnnotations(new HashMap<>());
    // never scheduled, even when a kubelet runs (ensure.sh full)
    var scheduling = new Scheduling();
    scheduling.setNodeSelector(Map.of("dht.dev/test-no-such-node", "true"));
    cluster.getSpec().setScheduling(scheduling);
    spec.accept(cluster.getSpec());
    return client.resource(cluster).create();
  }

  /** A user's edit, retried on a conflict with the operator's status writes. */
  private static void edit(String name, Consumer<DhtCluster> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        client
            .resources(DhtCluster.class)
            .inNamespace(ns)
            .withName(name)
            .edit(c -> {
              if (c.getMetadata().getAnnotations() == null) {
                c.getMetadata().setAnnotations(new HashMap<>());
              }
              change.accept(c);
              return c;
            });
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 5) {
          throw e;
        }
      }
    }
  }

  private static Secret get(String name) {
    return client.secrets().inNamespace(ns).withName(name).get();
  }

  private static Secret await(String name) {
    awaitUntil(() -> get(name) != null);
    return get(name);
  }

  private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> T await(
      Class<T> type, String name) {
    awaitUntil(() -> client.resources(type).inNamespace(ns).withName(name).get() != null);
    return client.resources(type).inNamespace(ns).withName(name).get();
  }

  private static void awaitUntil(Callable<Boolean> condition) {
    Awaitility.await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(condition);
  }

  private static DhtClusterStatus awaitStatus(
      String name, java.util.function.Predicate<DhtClusterStatus> condition) {
    awaitUntil(() -> {
      var status =
          client.resources(DhtCluster.class).inNamespace(ns).withName(name).get().getStatus();
      return status != null && condition.test(status);
    });
    return client.resources(DhtCluster.class).inNamespace(ns).withName(name).get().getStatus();
  }
}
