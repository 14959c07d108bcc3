package dev.dht.operator.loadtest.site;

import com.sun.net.httpserver.Headers;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where a request carries its bearer token, and the login cookie that holds it for a browser. Pure.
 *
 * <p>A browser cannot add an {@code Authorization} header to a plain navigation, so the login form
 * puts the token into a cookie: {@code HttpOnly} (no script reads it; the framed flame graphs run
 * scripts), {@code SameSite=Strict} (no other site's page makes the browser send it), {@code
 * Path=/reports} (not sent to the probes and metrics on the same port), {@code Secure} when the
 * site is reached over TLS, and no expiry: it ends with the browser session, or with the token.
 */
final class Credentials {
  static final String COOKIE = "dht-reports-token";

  /** {@code WWW-Authenticate} of a 401. */
  static final String CHALLENGE = "Bearer realm=\"dht-reports\"";

  /** A bearer token as RFC 6750 writes it (base64url and JWT characters). */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/-]+=*");

  /** What a browser keeps of one cookie (RFC 6265: at least 4096 bytes, name and value). */
  static final int MAX_COOKIE_TOKEN = 4096 - COOKIE.length() - 1;

  /** A longer token is no token (an OIDC ID token with many groups stays far below). */
  static final int MAX_TOKEN = 16 * 1024;

  private Credentials() {}

  /**
   * The request's token: {@code Authorization: Bearer <token>} if present (kubectl, curl), else the
   * login cookie; null if it carries neither, or one that is no token.
   */
  static String token(Headers headers) {
    String authorization = headers.getFirst("Authorization");
    if (authorization != null) {
      int space = authorization.indexOf(' ');
      boolean bearer = space > 0 && authorization.substring(0, space).equalsIgnoreCase("Bearer");
      return bearer ? wellFormed(authorization.substring(space + 1).strip()) : null;
    }
    for (String header : headers.getOrDefault("Cookie", List.of())) {
      for (String cookie : header.split(";")) {
        int eq = cookie.indexOf('=');
        if (eq > 0 && cookie.substring(0, eq).strip().equals(COOKIE)) {
          return wellFormed(cookie.substring(eq + 1).strip());
        }
      }
    }
    return null;
  }

  /** {@code token} if it is one, else null. */
  static String wellFormed(String token) {
    return token != null && token.length() <= MAX_TOKEN && TOKEN.matcher(token).matches()
        ? token
        : null;
  }

  /** The {@code Set-Cookie} of a login. */
  static String loginCookie(String token, boolean tls) {
    return COOKIE + "=" + token + attributes(tls);
  }

  /** The {@code Set-Cookie} of a logout: the cookie, emptied and expired. */
  static String logoutCookie(boolean tls) {
    return COOKIE + "=" + attributes(tls) + "; Max-Age=0";
  }

  private static String attributes(boolean tls) {
    return "; Path=/reports; HttpOnly; SameSite=Strict" + (tls ? "; Secure" : "");
  }

  /**
   * Where a login goes next: {@code asked} if it is a page of the site (the page a reader asked for
   * before logging in), else the index. Never elsewhere: no open redirect.
   */
  static String next(String asked) {
    boolean page =
        asked != null && asked.matches("[A-Za-z0-9._/-]+") && ReportSite.Page.of(asked) != null;
    return page ? asked : ReportSite.PREFIX;
  }

  /**
   * Whether a form post comes from the site's own page: the browser's {@code Sec-Fetch-Site}, or
   * failing that its {@code Origin}, says so. A post with neither comes from no browser (curl), so
   * it is no cross-site forgery. Refused otherwise: another site must not log a reader in with a
   * token of its choosing, nor out.
   */
  static boolean fromTheSite(Headers headers, boolean tls) {
    String site = headers.getFirst("Sec-Fetch-Site");
    if (site != null) {
      return site.equalsIgnoreCase("same-origin");
    }
    String origin = headers.getFirst("Origin");
    String host = headers.getFirst("Host");
    return origin == null
        || host != null
            && origin
                .toLowerCase(Locale.ROOT)
                .equals((tls ? "https://" : "http://") + host.toLowerCase(Locale.ROOT));
  }
}
