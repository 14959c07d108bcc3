package dev.dht.operator.users;

import dev.dht.operator.kube.Conditions;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.tls.CertManagerSecrets;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Keeps a {@link DhtUser}'s credentials: a Secret named like it with a new token when there is none
 * (a deleted Secret is a request for a new token), and the status that says where it is. The
 * DhtCluster's reconciler, not this one, tells the nodes: it watches the users and reads their
 * Secrets ({@link UserSecret#token}).
 */
@ControllerConfiguration(name = DhtUserReconciler.NAME)
public class DhtUserReconciler implements Reconciler<DhtUser> {
  public static final String NAME = "dhtuser";

  @Override
  public List<EventSource<?, DhtUser>> prepareEventSources(EventSourceContext<DhtUser> context) {
    var secrets =
        InformerEventSourceConfiguration.from(Secret.class, DhtUser.class)
            .withLabelSelector(UserSecret.SELECTOR)
            .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(DhtUser.class))
            .build();
    return List.of(new InformerEventSource<>(secrets, context));
  }

  @Override
  public UpdateControl<DhtUser> reconcile(DhtUser user, Context<DhtUser> context) {
    var secrets = context.getClient().secrets().inNamespace(user.getMetadata().getNamespace());
    String name = UserSecret.nameOf(user.getMetadata().getName());
    Optional<Secret> found =
        context
            .getSecondaryResource(Secret.class)
            .or(() -> Optional.ofNullable(secrets.withName(name).get()));
    Secret secret;
    if (found.isPresent()) {
      secret = found.get();
    } else {
      try {
        secret = secrets.resource(UserSecret.issue(user)).create();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
        secret = secrets.withName(name).get(); // made meanwhile, by whom its owner says
      }
    }
    boolean ours = secret != null && UserSecret.ownedBy(secret, user);
    var certificate = Certificate.of(user, context.getClient());
    var control =
        UpdateControl.patchStatus(
            statusPatch(
                user,
                ours ? secret.getMetadata().getCreationTimestamp() : null,
                ours,
                certificate,
                Instant.now()));
    // the cluster's reconciler issues and renews the certificate: look again for what it did
    if (certificate == null) {
      return control;
    }
    return control.rescheduleAfter(certificate.notAfter() == null ? UNTIL_ISSUED : UNTIL_RENEWED);
  }

  private static final Duration UNTIL_ISSUED = Duration.ofSeconds(5);
  private static final Duration UNTIL_RENEWED = Duration.ofMinutes(10);

  /**
   * The user's client certificate as its Secret shows it: null when none is asked for; {@code
   * notOwned} when a Secret of that name is someone else's; {@code notAfter} null while none is
   * issued.
   */
  private record Certificate(String secret, boolean notOwned, Instant notAfter) {
    static Certificate of(DhtUser user, KubernetesClient client) {
      if (!user.getSpec().wantsCertificate()) {
        return null;
      }
      String namespace = user.getMetadata().getNamespace();
      String name = UserCertificate.nameOf(user.getMetadata().getName());
      var found = client.secrets().inNamespace(namespace).withName(name).get();
      if (found == null) {
        return new Certificate(name, false, null);
      }
      // the operator's own Secret, else one cert-manager wrote for the user's Certificate
      if (!Owners.isControlledBy(found, user)
          && !UserCertificate.isUsers(
              found,
              user,
              CertManagerSecrets.certificates(client, namespace).withName(name).get())) {
        return new Certificate(name, true, null);
      }
      return new Certificate(name, false, UserCertificate.notAfter(found));
    }
  }

  /**
   * The status; {@code issued}, the token's Secret's creation time, changes with a new token, which
   * is what tells the cluster's reconciler (it watches the users) to give the nodes the new one.
   */
  private static DhtUser statusPatch(
      DhtUser user, String issued, boolean ours, Certificate certificate, Instant now) {
    var previous =
        user.getStatus() == null
            ? List.<io.fabric8.kubernetes.api.model.Condition>of()
            : user.getStatus().getConditions();
    long generation =
        user.getMetadata().getGeneration() == null ? 0 : user.getMetadata().getGeneration();
    String certificateNote =
        certificate == null
            ? ""
            : certificate.notAfter() != null
                ? "; the client certificate is in Secret " + certificate.secret()
                : "; no client certificate yet: the cluster's reconciler has it issued (TLS"
                    + " clusters only)";
    var ready =
        certificate != null && certificate.notOwned()
            ? Conditions.next(
                previous,
                Conditions.READY,
                false,
                "SecretNotOwned",
                "a Secret named "
                    + certificate.secret()
                    + " exists and was not made for this user: no client certificate is issued"
                    + " into it; delete or rename it",
                generation,
                now)
            : ours
                ? Conditions.next(
                    previous,
                    Conditions.READY,
                    true,
                    "CredentialsIssued",
                    "the token is in Secret "
                        + UserSecret.nameOf(user.getMetadata().getName())
                        + " (key token); the nodes of DhtCluster "
                        + user.clusterName()
                        + " accept it within seconds"
                        + certificateNote,
                    generation,
                    now)
                : Conditions.next(
                    previous,
                    Conditions.READY,
                    false,
                    "SecretNotOwned",
                    "a Secret named "
                        + UserSecret.nameOf(user.getMetadata().getName())
                        + " exists and was not made for this user: it is not used; delete or rename"
                        + " it, or name the user otherwise",
                    generation,
                    now);
    var status =
        DhtUserStatus.builder()
            .observedGeneration(generation)
            .secret(ours ? UserSecret.nameOf(user.getMetadata().getName()) : null)
            .tokenIssued(issued)
            .certificateSecret(
                certificate == null || certificate.notAfter() == null ? null : certificate.secret())
            .certificateNotAfter(
                certificate == null || certificate.notAfter() == null
                    ? null
                    : certificate.notAfter().toString())
            .conditions(List.of(ready))
            .build();
    var patch = new DhtUser();
    patch.setMetadata(
        new ObjectMetaBuilder()
            .withName(user.getMetadata().getName())
            .withNamespace(user.getMetadata().getNamespace())
            .build());
    patch.setStatus(status);
    return patch;
  }
}
