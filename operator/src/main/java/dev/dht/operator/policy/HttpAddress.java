package dev.dht.operator.policy;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where an http(s) base URL leads: scheme, host and port, as {@link URI} parses them (the load
 * generator parses its --url the same way), in the form they are compared in: scheme and host in
 * lower case, a host's trailing dot dropped, an IPv6 literal in its full form, no port = the
 * scheme's (80, 443). A URL with user info, a path, a query or a fragment is none.
 *
 * @param url the URL as the load generator gets it: scheme, host and port as given, nothing else
 */
record HttpAddress(String scheme, String host, int port, String url) {

  /** The address of {@code text}; an IllegalArgumentException says why it has none. */
  static HttpAddress parse(String text) {
    URI uri;
    try {
      uri = new URI(text.strip());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL (" + e.getReason() + ")");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("not an http:// or https:// URL");
    }
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("it carries user info (user@host)");
    }
    if (uri.getHost() == null) {
      throw new IllegalArgumentException(
          "no host name or address that can be matched (letters, digits, '-' and '.', or an IP)");
    }
    String path = uri.getRawPath();
    if (path != null && !path.isEmpty() && !path.equals("/")
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("a base URL has no path, query or fragment");
    }
    if (uri.getPort() > 65535) {
      throw new IllegalArgumentException("port " + uri.getPort() + " is out of range");
    }
    String host = uri.getHost().toLowerCase(Locale.ROOT);
    int port = uri.getPort() == -1 ? (scheme.equals("https") ? 443 : 80) : uri.getPort();
    String url = scheme + "://" + host + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
    return new HttpAddress(scheme, comparable(host), port, url);
  }

  /**
   * The host as compared: without a trailing dot ({@code a.example.} and {@code a.example} are one
   * name to the policy), an IPv6 literal in the one form {@link InetAddress} prints ({@code [::1]}
   * and {@code [0:0:0:0:0:0:0:1]} are one address). Host names and IPv4 addresses are compared as
   * written: another spelling of an allowed address ({@code 0x7f.1}) matches no rule.
   */
  private static String comparable(String host) {
    if (host.startsWith("[") && host.endsWith("]")) {
      try {
        return "["
            + InetAddress.ofLiteral(host.substring(1, host.length() - 1)).getHostAddress()
            + "]";
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("not an IPv6 address: " + host);
      }
    }
    return host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
  }
}
