package dev.dht.operator.policy;

/**
 * Why the chart's policy refuses what a custom resource asks for: a condition's reason (CamelCase)
 * and a message for people, which names the spec field and the chart value that decide.
 */
public record Refusal(String reason, String message) {
  /** A DhtLoadTest's spec.targetUrl that policy.loadTestTargets does not list. */
  public static final String TARGET_NOT_ALLOWED = "TargetNotAllowed";

  /** An image that policy.images does not allow (a DhtCluster's, or its load test's). */
  public static final String IMAGE_NOT_ALLOWED = "ImageNotAllowed";

  /** A DhtCluster's JVM option that policy.jvmOptions does not allow. */
  public static final String JVM_OPTION_NOT_ALLOWED = "JvmOptionNotAllowed";

  /** Longest piece of a tenant's value quoted in a message. */
  private static final int QUOTED = 120;

  /** A tenant's value, quoted and cut for a message. */
  static String quote(String value) {
    String cut = value.length() <= QUOTED ? value : value.substring(0, QUOTED) + "...";
    return "'" + cut + "'";
  }
}
