package dev.dht.operator.replacing;

/**
 * The pod to replace and its data claim as the apiserver shows them: each one's uid (null when it
 * does not exist) and whether it is being deleted; whether the pod is Ready and its node serves
 * reads (a node is Ready while it asks its peers whether it lacks data, before it pulls it).
 */
public record PodAndClaim(
    String podUid,
    boolean podTerminating,
    boolean podReady,
    String claimUid,
    boolean claimTerminating) {

  /** Neither exists (or nothing was looked at). */
  public static final PodAndClaim NONE = new PodAndClaim(null, false, false, null, false);

  /** The pod exists and is not being deleted. */
  boolean podRuns() {
    return podUid != null && !podTerminating;
  }
}
