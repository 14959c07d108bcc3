package dev.dht.operator.policy;

/**
 * One entry of policy.loadTestTargets: {@code scheme://host[:port]}, the host exact or {@code
 * *.domain} (any name with one or more labels before the domain, not the domain itself); no port:
 * the scheme's (80, 443).
 *
 * @param text the entry as the chart gave it
 * @param address its scheme, host (for a wildcard: the domain) and port
 * @param wildcard the host is {@code *.} and the domain
 */
record TargetRule(String text, HttpAddress address, boolean wildcard) {
  private static final String WILDCARD = "*.";

  /** The rule an entry states; an IllegalArgumentException says what is wrong with it. */
  static TargetRule parse(String text) {
    int hostStart = text.indexOf("://") + 3;
    boolean wildcard = hostStart > 2 && text.startsWith(WILDCARD, hostStart);
    String rest = wildcard ? text.substring(0, hostStart) + text.substring(hostStart + 2) : text;
    HttpAddress address;
    try {
      address = HttpAddress.parse(rest);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "'"
              + text
              + "' is not scheme://host[:port] or scheme://*.domain[:port]: "
              + e.getMessage());
    }
    if (wildcard && (address.host().startsWith("[") || !address.host().matches(".*[a-z].*"))) {
      throw new IllegalArgumentException(
          "'" + text + "': a wildcard stands for the labels before a domain name, not an address");
    }
    return new TargetRule(text, address, wildcard);
  }

  boolean matches(HttpAddress target) {
    if (!address.scheme().equals(target.scheme()) || address.port() != target.port()) {
      return false;
    }
    if (!wildcard) {
      return address.host().equals(target.host());
    }
    String host = target.host();
    String domain = "." + address.host();
    return host.length() > domain.length()
        && host.endsWith(domain)
        && !host.startsWith("[")
        && host.charAt(host.length() - domain.length() - 1) != '.';
  }
}
