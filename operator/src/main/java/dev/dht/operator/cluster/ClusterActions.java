package dev.dht.operator.cluster;

import dev.dht.operator.kube.Events;
import dev.dht.operator.rolling.PodState;
import dev.dht.operator.rolling.RollPlan;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.scaling.NodeAdmin;
import dev.dht.operator.scaling.ScalePlan;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the DhtCluster reconciler reads and does beyond its owned objects: the pods and what their
 * nodes report ({@link #observe}), and the steps that act on single objects: the pods' files
 * annotation, the one-time upgrade permission, a pod's restart (an eviction), the nodes' streams
 * and clean-ups, the claims of removed members.
 */
final class ClusterActions {
  /**
   * Annotated on the pods with a hash of their ConfigMap's file (the members file) when it changes:
   * the kubelet then refreshes the mounted file at once instead of within a minute or so.
   */
  static final String FILES_ANNOTATION = "dht.dev/config-files";

  /** On the data claims of members removed by a scale-down (kept by default). */
  static final String DETACHED_LABEL = "dht.dev/detached";

  private ClusterActions() {}

  /**
   * Whether the StatefulSet (as cached) carries the model's revision and its controller has
   * observed that generation: only then does a deleted pod come back with the current settings.
   */
  static boolean templateObserved(Context<DhtCluster> context, ClusterModel model) {
    var revision = model.desiredRevision().revision();
    return context
        .getSecondaryResource(StatefulSet.class)
        .filter(sts -> revision.equals(StatefulSetDependent.revision(sts)))
        .filter(sts ->
            sts.getStatus() != null
                && sts.getStatus().getObservedGeneration() != null
                && sts.getStatus().getObservedGeneration() >= sts.getMetadata().getGeneration())
        .isPresent();
  }

  /**
   * The pods of ordinals below the larger of the pods to run and the replicas asked for, and what
   * their nodes report (asked in parallel); nothing before the StatefulSet exists.
   */
  static Seen observe(
      Context<DhtCluster> context, ClusterModel model, NodeAdmin nodes, NodeZones nodeZones) {
    if (context.getSecondaryResource(StatefulSet.class).isEmpty()) {
      return Seen.NOTHING;
    }
    int count = Math.max(model.pods(), model.replicas());
    Map<String, Pod> byName = new HashMap<>();
    for (Pod pod :
        context
            .getClient()
            .pods()
            .inNamespace(model.namespace())
            .withLabels(model.selectorLabels())
            .list()
            .getItems()) {
      byName.put(pod.getMetadata().getName(), pod);
    }
    var urls = model.urls(count);
    List<PodState> pods = new ArrayList<>();
    Map<Integer, String> ask = new TreeMap<>();
    Map<Integer, Boolean> ready = new TreeMap<>();
    Map<Integer, String> images = new TreeMap<>();
    Map<Integer, String> files = new TreeMap<>();
    Map<Integer, String> zones = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      Pod pod = byName.get(model.podName(i));
      if (pod == null) {
        pods.add(PodState.missing(i, model.podName(i)));
        ask.put(i, null);
        continue;
      }
      pods.add(Pods.state(i, pod));
      ask.put(i, urls.get(i));
      ready.put(i, Pods.ready(pod));
      var annotations = pod.getMetadata().getAnnotations();
      if (annotations != null && annotations.containsKey(FILES_ANNOTATION)) {
        files.put(i, annotations.get(FILES_ANNOTATION));
      }
      String image = Pods.image(pod);
      if (image != null) {
        images.put(i, image);
      }
      String zone =
          model.topology().replicasByZone()
              ? nodeZones.zone(context.getClient(), pod.getSpec().getNodeName(), model)
              : "";
      if (zone != null) {
        zones.put(i, zone);
      }
    }
    return new Seen(pods, nodes.views(ask, ready, access(context, model)), images, files, zones);
  }

  /** Annotates the pods whose annotation does not name the current files (once per change). */
  static void refreshFiles(Context<DhtCluster> context, ClusterModel model, Seen seen) {
    String files = model.filesHash();
    for (PodState pod : seen.pods()) {
      if (!pod.exists() || files.equals(seen.files().get(pod.ordinal()))) {
        continue;
      }
      try {
        context
            .getClient()
            .pods()
            .inNamespace(model.namespace())
            .withName(pod.name())
            .edit(p -> {
              if (p.getMetadata().getAnnotations() == null) {
                p.getMetadata().setAnnotations(new HashMap<>());
              }
              p.getMetadata().getAnnotations().put(FILES_ANNOTATION, files);
              return p;
            });
      } catch (RuntimeException e) {
        // gone meanwhile; the kubelet refreshes the files on its own within a minute or so
      }
    }
  }

  /**
   * Removes the one-time permission once it is taken: once a status that records the new defaults
   * was written (and read back), so that a reconciliation of a cluster read before that status
   * still sees the permission. If this fails, it is taken again on the next reconciliation; the
   * defaults are accepted in the status meanwhile.
   */
  static void consumeAllowance(Context<DhtCluster> context, DhtCluster cluster) {
    removeAnnotation(context, cluster, UpgradeGate.ALLOW_ANNOTATION);
  }

  /**
   * Removes a one-shot annotation the operator consumed; a failure is left for the next
   * reconciliation, which decides again from what it reads.
   */
  static void removeAnnotation(Context<DhtCluster> context, DhtCluster cluster, String key) {
    try {
      context
          .getClient()
          .resource(cluster)
          .edit(c -> {
            c.getMetadata().getAnnotations().remove(key);
            return c;
          });
    } catch (RuntimeException e) {
      // removed on a later reconciliation
    }
  }

  /**
   * Evicts the pod (the StatefulSet recreates it from the current template) and says so ({@link
   * PodEviction}): when the disruption budget refuses, or the eviction fails otherwise, the pod
   * stays and the roll waits, saying why; it tries again on a later reconciliation.
   */
  static RollPlan.Decision restart(
      Context<DhtCluster> context,
      DhtCluster cluster,
      ClusterModel model,
      RollPlan.Restart restart) {
    String name = restart.pod().name();
    var outcome = PodEviction.evict(context, model.namespace(), name);
    if (outcome instanceof PodEviction.Refused r) {
      return restart.refused(r.budget());
    }
    if (outcome instanceof PodEviction.Failed f) {
      return restart.failed(f.why());
    }
    if (outcome instanceof PodEviction.Evicted e && e.wasGone()) {
      return restart; // gone meanwhile: the StatefulSet recreates it
    }
    Events.emit(
        context.getClient(),
        cluster,
        List.of(
            new Events.Transition(
                Events.NORMAL,
                "RollingRestart",
                "restarting pod " + name + ": " + restart.reason())),
        Instant.now());
    return restart;
  }

  /**
   * Carries out a decision once the owned objects are applied: asks nodes to stream or clean up.
   */
  static void startStreamsAndCleanups(
      Context<DhtCluster> context,
      ClusterModel model,
      ScalePlan.Decision decision,
      NodeAdmin nodes) {
    if (decision.stream().isEmpty() && decision.cleanup().isEmpty()) {
      return;
    }
    NodeAccess access = access(context, model);
    var urls = model.urls(model.pods());
    decision.stream().forEach(i -> nodes.start(urls.get(i), "stream", access));
    decision.cleanup().forEach(i -> nodes.start(urls.get(i), "cleanup", access));
  }

  /**
   * The data claims of ordinals beyond the members (left by a scale-down) are labelled detached, or
   * deleted if the spec says so; a claim a member uses again loses the label.
   */
  static void detachClaims(Context<DhtCluster> context, DhtCluster cluster, ClusterModel model) {
    var claims = context.getClient().persistentVolumeClaims().inNamespace(model.namespace());
    boolean delete =
        cluster.getSpec() != null
            && cluster.getSpec().getDetachedClaims() == DhtClusterSpec.DetachedClaims.Delete;
    for (var entry : dataClaims(context, model).entrySet()) {
      var claim = entry.getValue();
      boolean detached = entry.getKey() >= model.pods();
      var labels = claim.getMetadata().getLabels();
      boolean labelled = labels != null && "true".equals(labels.get(DETACHED_LABEL));
      var resource = claims.withName(claim.getMetadata().getName());
      if (detached && delete) {
        resource.delete();
      } else if (detached != labelled) {
        resource.edit(c -> {
          if (detached) {
            c.getMetadata().getLabels().put(DETACHED_LABEL, "true");
          } else {
            c.getMetadata().getLabels().remove(DETACHED_LABEL);
          }
          return c;
        });
      }
    }
  }

  /**
   * The cluster's data volume claims ({@code data-<cluster>-<ordinal>}, with its labels), by
   * ordinal.
   */
  static Map<Integer, PersistentVolumeClaim> dataClaims(
      Context<DhtCluster> context, ClusterModel model) {
    Pattern name = Pattern.compile(Pattern.quote("data-" + model.name() + "-") + "(\\d+)");
    var claims = new TreeMap<Integer, PersistentVolumeClaim>();
    for (var claim :
        context
            .getClient()
            .persistentVolumeClaims()
            .inNamespace(model.namespace())
            .withLabels(model.selectorLabels())
            .list()
            .getItems()) {
      Matcher m = name.matcher(claim.getMetadata().getName());
      if (m.matches()) {
        claims.put(Integer.parseInt(m.group(1)), claim);
      }
    }
    return claims;
  }

  /**
   * How to reach the nodes' admin port: with the cluster secret, over TLS trusting the cluster's CA
   * bundle on a TLS cluster ({@link AdminAccess}).
   */
  static NodeAccess access(Context<DhtCluster> context, ClusterModel model) {
    return AdminAccess.of(context.getClient(), model.namespace(), model.name(), model.transport());
  }
}
