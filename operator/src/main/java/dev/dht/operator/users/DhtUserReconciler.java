package dev.dht.operator.users;

import dev.dht.operator.kube.Conditions;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
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
    return UpdateControl.patchStatus(
        statusPatch(
            user, ours ? secret.getMetadata().getCreationTimestamp() : null, ours, Instant.now()));
  }

  /**
   * The status; {@code issued}, the token's Secret's creation time, changes with a new token, which
   * is what tells the cluster's reconciler (it watches the users) to give the nodes the new one.
   */
  private static DhtUser statusPatch(DhtUser user, String issued, boolean ours, Instant now) {
    var previous =
        user.getStatus() == null
            ? List.<io.fabric8.kubernetes.api.model.Condition>of()
            : user.getStatus().getConditions();
    long generation =
        user.getMetadata().getGeneration() == null ? 0 : user.getMetadata().getGeneration();
    var ready =
        ours
            ? Conditions.next(
                previous,
                Conditions.READY,
                true,
                "CredentialsIssued",
                "the token is in Secret "
                    + UserSecret.nameOf(user.getMetadata().getName())
                    + " (key token); the nodes of DhtCluster "
                    + user.clusterName()
                    + " accept it within seconds",
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
