package dev.dht.operator.loadtest.site;

import com.sun.net.httpserver.Headers;

/**
 * The headers that keep what tenants wrote from acting in a reader's browser. Anyone who may write
 * ConfigMaps in a watched namespace may write a report page or an artifact, so no page of the site
 * runs a script, loads anything from elsewhere or posts a form, and each page has an opaque origin
 * of its own (CSP {@code sandbox}): what one page holds cannot reach another through the site's
 * origin. Pure.
 */
final class SiteHeaders {
  /**
   * The index and the report pages: inline styles and an inline SVG chart, iframes of the test's
   * artifacts, nothing else. {@code allow-scripts} in the sandbox lets the framed flame graphs run
   * theirs (a frame inherits its page's sandbox); the page's own scripts stay blocked by {@code
   * default-src 'none'}.
   */
  static final String PAGE_POLICY =
      "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none';"
          + " form-action 'none'; frame-ancestors 'none'; sandbox allow-scripts";

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
