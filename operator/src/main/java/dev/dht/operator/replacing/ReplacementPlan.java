package dev.dht.operator.replacing;

import dev.dht.operator.kube.Events;
import dev.dht.operator.replacing.NodeReplacement.Phase;
import dev.dht.operator.scaling.Membership;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether and how to replace a node on a new, empty volume, as asked by the annotation {@value
 * #ANNOTATION}{@code =<pod>} on its DhtCluster. Pure: the reconciler observes the pod and its claim
 * {@code data-<pod>}, this decides, the reconciler evicts the pod and deletes the claim.
 *
 * <p>The steps, level-triggered (each reconciliation looks at what is there now):
 *
 * <ol>
 *   <li>refused while the annotation names no member ({@code <cluster>-<ordinal>}, ordinal below
 *       the members), or the cluster has no other replica of that node's keys; nothing is deleted
 *       and the annotation stays until it is fixed or removed;
 *   <li>waits while a change of size or of the default ack/from is under way: its plan counts on
 *       the nodes it streams between;
 *   <li>starts: the uids of the claim and the pod are recorded (in the status), the pod is evicted
 *       and, once the eviction went through, the claim deleted. The claim goes once the pod is gone
 *       (pvc-protection); the StatefulSet then recreates both. Evicting first means that a budget
 *       that refuses (another pod down) deletes nothing;
 *   <li>a pod recreated while the old claim is still there (Pending on it: it would wait for it
 *       forever) is evicted again;
 *   <li>done when the claim is a new one and the pod on it is Ready, which its node only is once it
 *       pulled its keys from its peers. The annotation is removed; the replacement stays recorded
 *       as done until the annotation is seen gone (a reconciliation of a cluster read before the
 *       removal must not start it again), then becomes the last replacement.
 * </ol>
 *
 * <p>Removing the annotation before anything was deleted cancels the replacement; after, it goes on
 * (the old volume is going anyway). While it runs the roller restarts nothing else and no change of
 * size starts.
 */
public final class ReplacementPlan {
  public static final String ANNOTATION = "dht.dev/replace";

  private ReplacementPlan() {}

  /**
   * What was observed: the cluster's name, the annotation's value (null if none), the replacement
   * the status records (null if none), the membership as published, the pod and claim of {@link
   * #subject} (else {@link PodAndClaim#NONE}), and the time.
   */
  public record Input(
      String cluster,
      String requested,
      NodeReplacement recorded,
      Membership membership,
      PodAndClaim observed,
      Instant now) {}

  /**
   * The decision: the replacement to record ({@code current}, null for none), one that just ended
   * ({@code completed}, for the last replacement; null keeps the one recorded), what to do (evict
   * the pod; delete the claim, after the eviction if there is one; remove the annotation), and the
   * events to post.
   */
  public record Decision(
      NodeReplacement current,
      NodeReplacement completed,
      boolean evictPod,
      boolean deleteClaim,
      boolean removeAnnotation,
      List<Events.Transition> events) {

    static final Decision NONE = show(null);

    static Decision show(NodeReplacement current) {
      return new Decision(current, null, false, false, false, List.of());
    }

    /** The pod whose replacement runs (its old pod or claim may be going), else null. */
    public String replacing() {
      return current != null && current.running() ? current.getPod() : null;
    }

    /** The pod stays: the eviction was refused or failed ({@code why}); nothing else is done. */
    public Decision evictionRefused(String why) {
      var waiting =
          current.toBuilder().message("evicting " + current.getPod() + " waits: " + why).build();
      return new Decision(waiting, completed, false, false, removeAnnotation, events);
    }

    Decision withCompleted(NodeReplacement done) {
      return new Decision(current, done, evictPod, deleteClaim, removeAnnotation, events);
    }
  }

  /**
   * The pod to observe: the one a running replacement records, else the one the annotation names if
   * it has the shape of a pod of this cluster; null if none.
   */
  public static String subject(String cluster, String requested, NodeReplacement recorded) {
    if (recorded != null && recorded.running()) {
      return recorded.getPod();
    }
    return requested != null && ordinal(cluster, requested) >= 0 ? requested : null;
  }

  /** The ordinal of {@code pod} if it is named {@code <cluster>-<ordinal>}, else -1. */
  private static int ordinal(String cluster, String pod) {
    Matcher m = Pattern.compile(Pattern.quote(cluster + "-") + "(0|[1-9][0-9]{0,8})").matcher(pod);
    return m.matches() ? Integer.parseInt(m.group(1)) : -1;
  }

  /** The claim of the pod's data volume, as the StatefulSet's claim template names it. */
  public static String claim(String pod) {
    return "data-" + pod;
  }

  public static Decision next(Input in) {
    var recorded = in.recorded();
    if (recorded != null && recorded.getPhase() == Phase.Done) {
      return afterDone(in, recorded);
    }
    if (recorded != null && recorded.running()) {
      return proceed(in, recorded);
    }
    return request(in);
  }

  /** Nothing started: refuse, wait, or start what the annotation asks. */
  private static Decision request(Input in) {
    String pod = in.requested();
    if (pod == null) {
      return Decision.NONE;
    }
    String refusal = refusal(in);
    if (refusal != null) {
      return Decision.show(
          NodeReplacement.builder()
              .pod(pod)
              .phase(Phase.Refused)
              .message(ANNOTATION + "=" + pod + " is refused: " + refusal)
              .build());
    }
    var membership = in.membership();
    if (membership.getStep() != Membership.Step.STABLE) {
      String change = membership.change();
      return Decision.show(
          NodeReplacement.builder()
              .pod(pod)
              .phase(Phase.Waiting)
              .message(
                  "waiting for "
                      + change
                      + " to finish: its plan counts on the nodes it streams between")
              .build());
    }
    var started =
        NodeReplacement.builder()
            .pod(pod)
            .startedAt(in.now().toString())
            .oldClaimUid(in.observed().claimUid())
            .oldPodUid(in.observed().podUid())
            .build();
    return proceed(in, started);
  }

  /** Why the annotation's value may not be replaced; null if it may. */
  private static String refusal(Input in) {
    String pod = in.requested();
    String cluster = in.cluster();
    int ordinal = ordinal(cluster, pod);
    if (ordinal < 0) {
      return "not a pod of this cluster (" + cluster + "-<ordinal>, e.g. " + cluster + "-0)";
    }
    int members = in.membership().getMembers();
    if (ordinal >= members) {
      return pod
          + " is not a member: the members are "
          + cluster
          + "-0"
          + (members > 1 ? " to " + cluster + "-" + (members - 1) : "");
    }
    var replication = in.membership().replication();
    if (members < 2 || replication != null && replication.from() < 2) {
      return "each key is on one node only (from 1): a new volume for "
          + pod
          + " would lose its keys for good; if they are lost anyway, delete its claim "
          + claim(pod)
          + " and the pod yourself";
    }
    return null;
  }

  /** A replacement under way: what is left to do, or done. */
  private static Decision proceed(Input in, NodeReplacement replacement) {
    var seen = in.observed();
    String pod = replacement.getPod();
    String claim = claim(pod);
    boolean claimIsOld =
        replacement.getOldClaimUid() != null
            && replacement.getOldClaimUid().equals(seen.claimUid());
    boolean onNewClaim = seen.claimUid() != null && !claimIsOld;
    boolean oldPod = seen.podRuns() && seen.podUid().equals(replacement.getOldPodUid());
    boolean asked = pod.equals(in.requested());
    if (!asked && untouched(replacement, seen, claimIsOld, oldPod)) {
      return new Decision(
          null,
          null,
          false,
          false,
          false,
          List.of(
              new Events.Transition(
                  Events.NORMAL,
                  "ReplacementCancelled",
                  "the replacement of " + pod + " was cancelled before anything was deleted")));
    }
    if (seen.podRuns() && !oldPod && onNewClaim && seen.podReady()) {
      return done(in, replacement, asked);
    }
    // the pod at the start, or one recreated while the old claim was still there
    boolean evict = seen.podRuns() && (oldPod || claimIsOld);
    boolean deleteClaim = claimIsOld && !seen.claimTerminating();
    Phase phase;
    String message;
    if (evict && oldPod) {
      phase = Phase.Evicting;
      message = "evicting " + pod + (deleteClaim ? ", then deleting its claim " + claim : "");
    } else if (evict) {
      phase = Phase.Recreating;
      message =
          pod
              + " was recreated while its old claim "
              + claim
              + " was still there: evicting it again, so that it comes back on a new one";
    } else if (seen.podTerminating()) {
      phase = Phase.Stopping;
      message =
          "waiting for "
              + pod
              + " to stop"
              + (claimIsOld ? "; its old claim " + claim + " goes with it" : "")
              + " (a pod on a Kubernetes node that is gone for good stays Terminating until that"
              + " Node is deleted)";
    } else if (claimIsOld) {
      phase = Phase.Recreating;
      message = "waiting for the old claim " + claim + " to go";
    } else if (!onNewClaim) {
      phase = Phase.Recreating;
      message =
          seen.podRuns()
              ? "waiting for the StatefulSet to create a new claim " + claim + " for " + pod
              : "waiting for the StatefulSet to recreate " + claim + " and " + pod;
    } else if (!seen.podRuns()) {
      phase = Phase.Recreating;
      message = "waiting for the StatefulSet to recreate " + pod + " on the new claim " + claim;
    } else {
      phase = Phase.Bootstrapping;
      message =
          pod
              + " runs on a new claim "
              + claim
              + " and is not Ready yet: it pulls its keys from its peers before it serves";
    }
    if (!asked) {
      message += " (" + ANNOTATION + " no longer names it, but its old volume is going already)";
    }
    return new Decision(
        replacement.toBuilder().phase(phase).message(message).build(),
        null,
        evict,
        deleteClaim,
        false,
        List.of());
  }

  /** Nothing was deleted yet: the claim and the pod are the ones the replacement started with. */
  private static boolean untouched(
      NodeReplacement replacement, PodAndClaim seen, boolean claimIsOld, boolean oldPod) {
    boolean claimKept =
        replacement.getOldClaimUid() == null || claimIsOld && !seen.claimTerminating();
    boolean podKept = replacement.getOldPodUid() == null ? seen.podUid() == null : oldPod;
    return claimKept && podKept;
  }

  /** The pod is Ready on a new claim: done; the annotation goes. */
  private static Decision done(Input in, NodeReplacement replacement, boolean asked) {
    long seconds =
        Duration.between(Instant.parse(replacement.getStartedAt()), in.now()).toSeconds();
    String message =
        "replaced "
            + replacement.getPod()
            + " on a new volume in "
            + seconds
            + " s; it pulled its keys from its peers before serving";
    var done =
        replacement.toBuilder()
            .phase(Phase.Done)
            .finishedAt(in.now().toString())
            .message(message)
            .build();
    return new Decision(
        done,
        null,
        false,
        false,
        asked,
        List.of(new Events.Transition(Events.NORMAL, "Replaced", message)));
  }

  /**
   * Done: the annotation is removed until it is seen gone; then the replacement is the last one,
   * and the annotation (if it names another pod now) is a new request.
   */
  private static Decision afterDone(Input in, NodeReplacement done) {
    if (done.getPod().equals(in.requested())) {
      return new Decision(done, null, false, false, true, List.of());
    }
    return request(in).withCompleted(done);
  }
}
