package dev.dht.operator.policy;

import java.util.List;

/**
 * policy.loadTestTargets: the URLs a DhtLoadTest's spec.targetUrl may point at. None (the chart's
 * default): every targetUrl is refused, and load tests run against a DhtCluster (spec.clusterRef)
 * only. Pure.
 */
public record LoadTestTargets(List<TargetRule> rules) {
  public static final String VALUE = "policy.loadTestTargets";

  /** What the policy decided for a targetUrl: the URL to load, or why not. */
  public record Decision(String url, Refusal refusal) {
    public boolean allowed() {
      return refusal == null;
    }
  }

  public LoadTestTargets {
    rules = List.copyOf(rules);
  }

  /** The rules of the chart's entries; an IllegalArgumentException names a malformed one. */
  public static LoadTestTargets of(List<String> entries) {
    return new LoadTestTargets(entries.stream().map(TargetRule::parse).toList());
  }

  /**
   * Whether {@code targetUrl} may be loaded. Compared are the scheme, host and port that {@link
   * java.net.URI} parses, never a prefix of the text: {@code http://allowed@evil} goes to {@code
   * evil} (and user info is refused outright), {@code http://allowed.evil.com} is another host.
   */
  public Decision check(String targetUrl) {
    if (rules.isEmpty()) {
      return refused(
          targetUrl,
          VALUE + " is empty: only DhtClusters (spec.clusterRef) may be load-tested here");
    }
    HttpAddress address;
    try {
      address = HttpAddress.parse(targetUrl);
    } catch (IllegalArgumentException e) {
      return refused(targetUrl, e.getMessage());
    }
    if (rules.stream().anyMatch(rule -> rule.matches(address))) {
      return new Decision(address.url(), null);
    }
    return refused(
        targetUrl,
        "it is none of "
            + VALUE
            + ": "
            + String.join(", ", rules.stream().map(TargetRule::text).toList()));
  }

  private static Decision refused(String targetUrl, String why) {
    return new Decision(
        null,
        new Refusal(
            Refusal.TARGET_NOT_ALLOWED,
            "spec.targetUrl "
                + Refusal.quote(targetUrl)
                + " is not allowed by the operator's policy: "
                + why));
  }
}
