package dev.dht.operator.tls;

import dev.dht.operator.kube.Events;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.kube.SecretTexts;
import dev.dht.pki.CertificateAuthority;
import dev.dht.pki.CertificateInfo;
import dev.dht.pki.LeafRequest;
import dev.dht.pki.Validity;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Keeps a cluster's CA, trust bundle and node certificate in its three Secrets ({@link
 * SecretNames}), one {@link CertificatePlan} step after another until the plan waits or has nothing
 * to do. Every write is an update at the version read (a create for a missing Secret), so two
 * writers never both win; a conflict fails the reconciliation, which is retried.
 *
 * <p>The Secrets are read from the apiserver, not through an informer: the workflow's read-only
 * Secret dependent has the operator's only Secret informer and expects one Secret per cluster in
 * it. That is also why they carry the cluster's labels but not managed-by.
 */
public final class TlsSecrets {
  /** Certificates start a little in the past: a node whose clock lags still accepts them. */
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  /**
   * The longest chain takes six (retire an expired previous CA, its bundle, a certificate, a
   * requested new CA, its bundle, wait); more would be a bug: stop there.
   */
  private static final int MAX_STEPS = 8;

  static final String COMPONENT_LABEL = "app.kubernetes.io/component";

  private final CertificatePolicy policy;

  public TlsSecrets(CertificatePolicy policy) {
    this.policy = policy;
  }

  /** Brings the Secrets up to date as far as the plan allows now; what they hold after. */
  public TlsReport reconcile(KubernetesClient client, TlsCluster cluster, Instant now) {
    var names = cluster.secretNames();
    var api = client.secrets().inNamespace(cluster.namespace());
    var secrets =
        new ClusterSecrets(
            api.withName(names.ca()).get(),
            api.withName(names.caCert()).get(),
            api.withName(names.nodeTls()).get());
    var foreign =
        Stream.of(secrets.ca(), secrets.caCert(), secrets.nodeTls())
            .filter(secret -> secret != null && !OwnedSecrets.madeFor(secret, cluster.owner()))
            .map(secret -> secret.getMetadata().getName())
            .toList();
    if (!foreign.isEmpty()) {
      Events.emit(
          client,
          cluster.owner(),
          List.of(
              new Events.Transition(
                  Events.WARNING,
                  TlsReport.NOT_OWNED,
                  "Secrets not made for this cluster: " + foreign)),
          now);
      return TlsReport.notOwned(cluster.namespace(), foreign);
    }
    var wanted =
        new CertificatePlan.Wanted(Set.copyOf(cluster.dnsNames()), cluster.rotationRequested());
    var events = new ArrayList<Events.Transition>();
    try {
      var writer = new Writer(client, cluster, now);
      for (int i = 0; i < MAX_STEPS; i++) {
        var step = CertificatePlan.next(secrets.observed(), wanted, now, policy);
        switch (step) {
          case CertificatePlan.NewCa newCa ->
              secrets = writer.newCa(secrets, newCa, wanted, events);
          case CertificatePlan.PublishTrust publish ->
              secrets = writer.publishTrust(secrets, events);
          case CertificatePlan.IssueCertificate issue ->
              secrets = writer.issueCertificate(secrets, issue, events);
          case CertificatePlan.RetirePreviousCa retire ->
              secrets = writer.retirePreviousCa(secrets, retire, events);
          case CertificatePlan.Wait wait -> {
            return TlsReport.of(secrets, wait);
          }
          case CertificatePlan.UpToDate done -> {
            return TlsReport.of(secrets, done);
          }
        }
      }
    } finally {
      Events.emit(client, cluster.owner(), events, now);
    }
    throw new IllegalStateException(
        "the certificates of " + cluster.name() + " did not settle in " + MAX_STEPS + " steps");
  }

  /** The writes of one reconciliation. */
  private final class Writer {
    private final KubernetesClient client;
    private final TlsCluster cluster;
    private final Instant now;

    Writer(KubernetesClient client, TlsCluster cluster, Instant now) {
      this.client = client;
      this.cluster = cluster;
      this.now = now;
    }

    ClusterSecrets newCa(
        ClusterSecrets secrets,
        CertificatePlan.NewCa step,
        CertificatePlan.Wanted wanted,
        List<Events.Transition> events) {
      var old = secrets.caContent();
      var ca =
          CertificateAuthority.generate(
              "dht CA " + cluster.namespace() + "/" + cluster.name() + " " + SecretData.format(now),
              new Validity(now.minus(CLOCK_SKEW), now.plus(policy.caLifetime())));
      var previous =
          step.keepPrevious() ? old.map(c -> c.current().certificate()).orElse(null) : null;
      // a new CA satisfies any request made so far, also one made before the first CA
      String handled =
          wanted.rotationRequested() != null
              ? wanted.rotationRequested()
              : old.map(CaSecret::rotationHandled).orElse(null);
      var content = new CaSecret(ca, previous, handled);
      var written = writeCa(secrets, content);
      events.add(
          new Events.Transition(
              Events.NORMAL,
              step.keepPrevious() ? "CaRotationStarted" : "CaCreated",
              "new CA "
                  + CertificateInfo.fingerprint(ca.certificate())
                  + " because "
                  + step.why()
                  + (step.keepPrevious()
                      ? "; the old one stays trusted until the nodes moved"
                      : "")));
      return secrets.withCa(written);
    }

    ClusterSecrets publishTrust(ClusterSecrets secrets, List<Events.Transition> events) {
      var trust = secrets.caContent().orElseThrow().trust();
      if (!trust.fingerprints().equals(secrets.publicTrust().fingerprints())) {
        secrets =
            secrets.withCaCert(
                write(
                    secrets.caCert(),
                    cluster.secretNames().caCert(),
                    "Opaque",
                    SecretTexts.encode(Map.of(CaSecret.CERT, trust.pem())),
                    Map.of()));
      }
      var node = secrets.nodeContent();
      if (node != null
          && node.certificate() != null
          && !trust.fingerprints().equals(node.trust().fingerprints())) {
        secrets =
            writeNodeTls(
                secrets,
                new NodeTlsSecret(node.certificate(), trust, now, node.certificateIssuedAt()));
      }
      events.add(
          new Events.Transition(
              Events.NORMAL, "TrustBundleUpdated", "trusted CAs: " + trust.fingerprints()));
      return secrets;
    }

    ClusterSecrets issueCertificate(
        ClusterSecrets secrets,
        CertificatePlan.IssueCertificate step,
        List<Events.Transition> events) {
      var ca = secrets.caContent().orElseThrow();
      var validity =
          new Validity(now.minus(CLOCK_SKEW), now.plus(policy.certificateLifetime()))
              .endingNoLaterThan(ca.current().certificate().getNotAfter().toInstant());
      var issued =
          ca.current()
              .issue(
                  new LeafRequest(
                      cluster.name() + "." + cluster.namespace() + " dht node",
                      cluster.dnsNames(),
                      validity));
      var trust = ca.trust();
      var before = secrets.nodeContent();
      boolean trustChanged =
          before == null || !trust.fingerprints().equals(before.trust().fingerprints());
      var written =
          writeNodeTls(
              secrets,
              new NodeTlsSecret(issued, trust, trustChanged ? now : before.trustChangedAt(), now));
      events.add(
          new Events.Transition(
              Events.NORMAL,
              "CertificateIssued",
              "new node certificate, valid until "
                  + SecretData.format(validity.notAfter())
                  + ", because "
                  + step.why()));
      return written;
    }

    ClusterSecrets retirePreviousCa(
        ClusterSecrets secrets,
        CertificatePlan.RetirePreviousCa step,
        List<Events.Transition> events) {
      var content = secrets.caContent().orElseThrow().withoutPrevious();
      var written = writeCa(secrets, content);
      events.add(
          new Events.Transition(
              Events.NORMAL,
              "OldCaRetired",
              "the previous CA is no longer trusted: " + step.why()));
      return secrets.withCa(written);
    }

    private ClusterSecrets writeNodeTls(ClusterSecrets secrets, NodeTlsSecret content) {
      return secrets.withNodeTls(
          write(
              secrets.nodeTls(),
              cluster.secretNames().nodeTls(),
              NodeTlsSecret.TYPE,
              content.data(),
              content.annotations()));
    }

    /**
     * Creates the Secret, or updates the one read at its version. Labels and annotations of others
     * on an existing Secret are kept; the owner reference is the cluster's.
     */
    /** The CA Secret with {@code content}, written over the one read. */
    private Secret writeCa(ClusterSecrets secrets, CaSecret content) {
      return write(
          secrets.ca(),
          cluster.secretNames().ca(),
          "Opaque",
          content.data(),
          content.annotations());
    }

    private Secret write(
        Secret existing,
        String name,
        String type,
        Map<String, String> data,
        Map<String, String> annotations) {
      var api = client.secrets().inNamespace(cluster.namespace());
      var labels = new LinkedHashMap<>(cluster.labels());
      labels.put(COMPONENT_LABEL, "tls");
      if (existing == null) {
        var secret =
            new SecretBuilder()
                .withMetadata(
                    new ObjectMetaBuilder()
                        .withName(name)
                        .withNamespace(cluster.namespace())
                        .withLabels(labels)
                        .withAnnotations(annotations.isEmpty() ? null : annotations)
                        .withOwnerReferences(Owners.controller(cluster.owner()))
                        .build())
                .withType(type)
                .withData(data)
                .build();
        return api.resource(secret).create();
      }
      var metadata = new ObjectMetaBuilder(existing.getMetadata()).addToLabels(labels);
      var merged = new LinkedHashMap<String, String>();
      if (existing.getMetadata().getAnnotations() != null) {
        merged.putAll(existing.getMetadata().getAnnotations());
      }
      // our own annotations say what the content is: one the new content has not is dropped
      merged
          .keySet()
          .removeIf(key -> OWN_ANNOTATIONS.contains(key) && !annotations.containsKey(key));
      merged.putAll(annotations);
      var secret =
          new SecretBuilder(existing)
              .withMetadata(metadata.withAnnotations(merged.isEmpty() ? null : merged).build())
              .withData(data)
              .withStringData(null)
              .build();
      return api.resource(secret).update();
    }
  }

  private static final Set<String> OWN_ANNOTATIONS =
      Set.of(CaSecret.ROTATION_HANDLED, NodeTlsSecret.TRUST_CHANGED_AT, NodeTlsSecret.ISSUED_AT);
}
