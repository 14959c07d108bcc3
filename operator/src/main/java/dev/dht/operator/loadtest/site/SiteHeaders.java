package dev.dht.operator.loadtest.site;

import com.sun.net.httpserver.Headers;

/**
 * The headers that keep what tenants wrote from acting in a reader's browser. Anyone who may write
 * ConfigMaps in a watched namespace may write a report page or an artifact, so no page of the site
 * runs a script, loads anything from elsewhere or posts a form, and every artifact runs its scripts
 * in an opaque origin of its own (CSP {@code sandbox} without {@code allow-same-origin}): what an
 * artifact holds cannot reach the site, its login cookie or another page. Pure.
 */
final class SiteHeaders {
  /**
   * The index and the report pages: inline styles and an inline SVG chart, iframes of the test's
   * artifacts, nothing else. {@code allow-scripts} in the sandbox lets the framed flame graphs run
   * theirs (a frame inherits its page's sandbox); the page's own scripts stay blocked by {@code
   * default-src 'none'}. {@code allow-same-origin}: a page in an opaque origin is another site to
   * the browser, which then sends no {@code SameSite} cookie with the requests of its frames and
   * links (Chromium sends none), so the login cookie would not reach the flame graphs; a page that
   * runs no script gains nothing else from its origin.
   */
  static final String PAGE_POLICY =
      "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none';"
          + " form-action 'none'; frame-ancestors 'none'; sandbox allow-scripts allow-same-origin";

  /**
   * The login form (and the 401 that shows it): the site's own page, no tenant's text in it; it
   * posts its form to the site ({@code allow-forms}, {@code form-action 'self'}) from the site's
   * origin, so that the browser names it in {@code Origin} and {@code Sec-Fetch-Site}.
   */
  static final String LOGIN_POLICY =
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self';"
          + " frame-ancestors 'none'; sandbox allow-forms allow-same-origin";

  /**
   * An artifact: a flame graph is a page with inline scripts and styles that draws on a canvas. It
   * runs in an opaque origin ({@code sandbox allow-scripts}, no {@code allow-same-origin}) and may
   * fetch nothing, so its scripts see only itself. {@code allow-modals}: its search asks for the
   * pattern with {@code prompt()} (opened on its own; framed in a report it has no dialogs).
   */
  static final String ARTIFACT_POLICY =
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:;"
          + " base-uri 'none'; form-action 'none'; sandbox allow-scripts allow-modals";

  private SiteHeaders() {}

  /** For the site's own pages (and its plain-text answers). */
  static void page(Headers headers, String contentType) {
    common(headers, contentType);
    headers.set("Content-Security-Policy", PAGE_POLICY);
  }

  /** For the login form. */
  static void login(Headers headers) {
    common(headers, "text/html; charset=utf-8");
    headers.set("Content-Security-Policy", LOGIN_POLICY);
  }

  /** For an artifact, whatever its type says it is. */
  static void artifact(Headers headers, String contentType) {
    common(headers, contentType);
    headers.set("Content-Security-Policy", ARTIFACT_POLICY);
  }

  private static void common(Headers headers, String contentType) {
    headers.set("Content-Type", contentType);
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "no-referrer");
    headers.set("Cache-Control", "no-store");
  }
}
