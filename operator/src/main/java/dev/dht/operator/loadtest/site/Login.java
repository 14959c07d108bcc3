package dev.dht.operator.loadtest.site;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code /reports/login} and {@code /reports/logout}, for browsers: the form ({@link LoginPage}), a
 * posted token checked with a TokenReview and kept in the login cookie ({@link Credentials}), the
 * cookie dropped. Posts from another site are refused.
 */
final class Login {
  /** A form with a token: the token's limit and the rest of the form. */
  private static final int MAX_FORM = Credentials.MAX_TOKEN + 1024;

  private final Reviews reviews;

  Login(Reviews reviews) {
    this.reviews = reviews;
  }

  static boolean handles(String path) {
    return path.equals(LoginPage.PATH) || path.equals(LoginPage.LOGOUT_PATH);
  }

  void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    boolean login = exchange.getRequestURI().getPath().equals(LoginPage.PATH);
    if (login && method.equals("GET")) {
      var query = form(exchange.getRequestURI().getRawQuery());
      form(exchange, 200, "Log in to read the load test reports.", query.get("next"));
    } else if (!method.equals("POST")) {
      ReportSite.text(exchange, 405, "GET or POST\n");
    } else if (!Credentials.fromTheSite(exchange.getRequestHeaders(), tls(exchange))) {
      ReportSite.text(exchange, 403, "a form of another site: refused\n");
    } else if (login) {
      login(exchange);
    } else {
      exchange.getResponseHeaders().add("Set-Cookie", Credentials.logoutCookie(tls(exchange)));
      redirect(exchange, LoginPage.PATH);
    }
  }

  private void login(HttpExchange exchange) throws IOException {
    byte[] body = exchange.getRequestBody().readNBytes(MAX_FORM + 1);
    if (body.length > MAX_FORM) {
      ReportSite.text(exchange, 413, "the form is larger than a token\n");
      return;
    }
    var fields = form(new String(body, StandardCharsets.UTF_8));
    String next = fields.get("next");
    String token = Credentials.wellFormed(fields.getOrDefault("token", "").strip());
    if (token == null) {
      form(exchange, 400, "That is no bearer token.", next);
    } else if (token.length() > Credentials.MAX_COOKIE_TOKEN) {
      form(exchange, 400, tooLong(token), next);
    } else {
      var who = reviews.authenticate(token);
      if (!who.authenticated()) {
        challenge(exchange, who, next);
        return;
      }
      exchange
          .getResponseHeaders()
          .add("Set-Cookie", Credentials.loginCookie(token, tls(exchange)));
      redirect(exchange, Credentials.next(next));
    }
  }

  private static String tooLong(String token) {
    return "The token ("
        + token.length()
        + " characters) is longer than a browser keeps in a"
        + " cookie: send it as an Authorization: Bearer header instead.";
  }

  /**
   * A 401: no token ({@code refused} null), or one the apiserver did not take. With the login form,
   * for a browser sent here, and the Bearer challenge (RFC 6750), for any other client.
   */
  static void challenge(HttpExchange exchange, Reviews.Authentication refused, String next)
      throws IOException {
    exchange
        .getResponseHeaders()
        .set(
            "WWW-Authenticate",
            Credentials.CHALLENGE + (refused == null ? "" : ", error=\"invalid_token\""));
    form(
        exchange,
        401,
        refused == null
            ? "Log in to read the load test reports."
            : "The apiserver did not accept the token: " + refused.error(),
        next);
  }

  private static void form(HttpExchange exchange, int status, String message, String next)
      throws IOException {
    byte[] page = LoginPage.render(message, next).getBytes(StandardCharsets.UTF_8);
    SiteHeaders.login(exchange.getResponseHeaders());
    exchange.sendResponseHeaders(status, page.length);
    exchange.getResponseBody().write(page);
  }

  /** 303: the browser follows it with a GET. */
  private static void redirect(HttpExchange exchange, String location) throws IOException {
    exchange.getResponseHeaders().set("Location", location);
    ReportSite.text(exchange, 303, "see " + location + "\n");
  }

  /**
   * Whether the reader reached the site over TLS: the site's own TLS, or a proxy's that says so (it
   * only makes the cookie {@code Secure}).
   */
  static boolean tls(HttpExchange exchange) {
    return exchange instanceof HttpsExchange
        || "https".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("X-Forwarded-Proto"));
  }

  /** An {@code application/x-www-form-urlencoded} form (or query); the first of a repeated name. */
  static Map<String, String> form(String encoded) {
    var fields = new HashMap<String, String>();
    if (encoded == null) {
      return fields;
    }
    for (String pair : encoded.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        try {
          fields.putIfAbsent(
              URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
              URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) { // a malformed escape: not a field
        }
      }
    }
    return fields;
  }
}
