package dev.dht.operator.cluster;

import dev.dht.contract.UsersDocument;
import dev.dht.operator.kube.Conditions;
import dev.dht.operator.kube.Owners;
import dev.dht.operator.kube.SecretTexts;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.scaling.NodeView;
import dev.dht.operator.users.DhtUser;
import dev.dht.operator.users.UserSecret;
import dev.dht.operator.users.UsersFile;
import dev.dht.operator.users.UsersStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a DhtCluster's nodes know of its clients: the users file (Secret {@code <c>-users}, key
 * {@value ClusterModel#USERS_KEY}), written from the cluster's {@link DhtUser}s and their tokens'
 * Secrets, and pushed to every node that answered with an older revision, since the kubelet takes a
 * minute or more to update a mounted Secret: a revoked token is refused within seconds. A Secret of
 * that name that the cluster does not own stops the reconciliation like the cluster secret's would:
 * it decides who gets in.
 */
final class ClusterUsers {
  static final String CONDITION = "UsersApplied";

  private ClusterUsers() {}

  /** Where the users stand after this reconciliation; null: no users file (an older cluster). */
  record Report(UsersDocument document, String documentJson, boolean notOwned, int nodesBehind) {
    boolean blocked() {
      return notOwned;
    }
  }

  /** The users file brought up to date (not yet pushed: {@link #push}). */
  static Report write(Context<DhtCluster> context, ClusterModel model, Seen seen) {
    if (!model.authentication().usersFile()) {
      return null;
    }
    var client = context.getClient();
    var secrets = client.secrets().inNamespace(model.namespace());
    var cluster = context.getPrimaryResource();
    boolean certificates = model.tls(); // a plain cluster could not check a certificate
    var userCertificates = new UserCertificates(client, cluster, Instant.now());
    var holders = new ArrayList<UsersFile.Holder>();
    for (DhtUser user : context.getSecondaryResources(DhtUser.class)) {
      if (!model.name().equals(user.clusterName())
          || user.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      boolean certificate =
          certificates && user.getSpec().wantsCertificate() && userCertificates.ensure(user);
      UserSecret.token(
              secrets.withName(UserSecret.nameOf(user.getMetadata().getName())).get(), user)
          .ifPresent(token -> holders.add(new UsersFile.Holder(user, token, certificate)));
    }
    var existing = Optional.ofNullable(secrets.withName(model.usersSecretName()).get());
    if (existing.isPresent() && !Owners.isOwnedBy(existing.get(), cluster)) {
      return new Report(null, null, true, 0);
    }
    String previous = existing.map(s -> SecretTexts.text(s, ClusterModel.USERS_KEY)).orElse(null);
    long held =
        seen.nodes().values().stream().mapToLong(v -> v.report().usersRevision()).max().orElse(-1);
    var document = UsersFile.next(model.authentication().mode(), holders, previous, held);
    String json = document.toJson();
    if (!json.equals(previous)) {
      var secret =
          new SecretBuilder()
              .withNewMetadata()
              .withName(model.usersSecretName())
              .withNamespace(model.namespace())
              // not managed-by: the cluster Secret's informer selects on it (see ClusterTls)
              .withLabels(model.selectorLabels())
              .withOwnerReferences(List.of(Owners.controller(cluster)))
              .endMetadata()
              .withType("Opaque")
              .withData(SecretTexts.encode(Map.of(ClusterModel.USERS_KEY, json)))
              .build();
      if (existing.isPresent()) {
        // at the version read: a concurrent writer makes this fail, and the next turn retry
        secret.getMetadata().setResourceVersion(existing.get().getMetadata().getResourceVersion());
        secrets.resource(secret).update();
      } else {
        secrets.resource(secret).create();
      }
    }
    return new Report(document, json, false, 0);
  }

  /** Gives the document to every node that answered with an older revision; how many are left. */
  static Report push(
      Report report, Seen seen, ClusterModel model, NodeAccess access, NodeAdmin nodes) {
    if (report == null || report.blocked()) {
      return report;
    }
    var urls = model.urls(Math.max(model.pods(), model.replicas()));
    int behind = 0;
    for (NodeView view : seen.nodes().values()) {
      if (!view.answered() || view.report().usersRevision() >= report.document().revision()) {
        continue;
      }
      String url = urls.get(view.ordinal());
      if (url == null || !nodes.putUsers(url, report.documentJson(), access)) {
        behind++;
      }
    }
    return new Report(report.document(), report.documentJson(), false, behind);
  }

  /**
   * status.users and the {@value #CONDITION} condition; as the status had them when this
   * reconciliation made no report ({@code report} null and the cluster has a users file: paused or
   * failed).
   */
  static void report(
      DhtClusterStatus status, DhtCluster cluster, ClusterModel model, Report report, Instant now) {
    if (!model.authentication().usersFile()) {
      return;
    }
    var previous = Optional.ofNullable(cluster.getStatus());
    List<Condition> before = previous.map(DhtClusterStatus::getConditions).orElse(List.of());
    Optional<Condition> condition;
    if (report == null) {
      status.setUsers(
          previous
              .map(DhtClusterStatus::getUsers)
              .orElse(UsersStatus.builder().authentication(model.authentication().mode()).build()));
      condition = Conditions.find(before, CONDITION);
    } else if (report.blocked()) {
      status.setUsers(previous.map(DhtClusterStatus::getUsers).orElse(new UsersStatus()));
      status.getUsers().setAuthentication(model.authentication().mode());
      condition =
          Optional.of(
              Conditions.next(
                  before,
                  CONDITION,
                  false,
                  "SecretNotOwned",
                  "a Secret named "
                      + model.usersSecretName()
                      + " exists and was not made for this cluster: it is not used, and nothing"
                      + " that would mount it is applied; delete or rename it",
                  model.generation(),
                  now));
    } else {
      var document = report.document();
      status.setUsers(
          UsersStatus.builder()
              .authentication(model.authentication().mode())
              .revision(document.revision())
              .users(document.users().size())
              .nodesBehind(report.nodesBehind())
              .build());
      condition =
          Optional.of(
              Conditions.next(
                  before,
                  CONDITION,
                  report.nodesBehind() == 0,
                  report.nodesBehind() == 0 ? "UsersApplied" : "NodesBehind",
                  report.nodesBehind() == 0
                      ? "every answering node holds users revision " + document.revision()
                      : report.nodesBehind()
                          + " node(s) did not take users revision "
                          + document.revision()
                          + " yet",
                  model.generation(),
                  now));
    }
    var conditions = new ArrayList<>(status.getConditions());
    condition.ifPresent(conditions::add);
    status.setConditions(conditions);
  }
}
