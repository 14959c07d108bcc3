package dev.dht.operator.loadtest.site;

import dev.dht.operator.loadtest.report.HtmlReport;

/**
 * The login form: a token pasted in, posted to {@code /reports/login}, kept in the login cookie
 * ({@link Credentials}). Plain HTML, no script: it works under {@link SiteHeaders#LOGIN_POLICY}.
 * Also the body of a 401, so that a browser sent there can log in at once. Pure.
 */
final class LoginPage {
  static final String PATH = "/reports/login";
  static final String LOGOUT_PATH = "/reports/logout";

  private LoginPage() {}

  /** {@code message}: why the form is shown; {@code next}: the page to go to after the login. */
  static String render(String message, String next) {
    return """
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8"><title>dht load test reports: log in</title>
    <style>body{font-family:sans-serif;margin:2em;color:#222;max-width:48em}\
    input{width:100%%;font-family:monospace}button{margin-top:.5em}</style></head><body>
    <h1>dht load test reports</h1>
    <p id="message">%s</p>
    <form method="post" action="%s">
    <input type="hidden" name="next" value="%s">
    <label for="token">A Kubernetes bearer token of a user who may <code>get</code> \
    <code>dhtloadtests.dht.dev</code> in the namespaces to read:</label>
    <input type="password" id="token" name="token" autocomplete="off" required autofocus>
    <button type="submit">Log in</button>
    </form>
    <p>For a ServiceAccount: <code>kubectl create token &lt;service-account&gt; -n \
    &lt;namespace&gt;</code>. The browser keeps the token in a cookie of this site \
    until it is closed; the apiserver is asked about it again at least every 10 seconds.</p>
    <form method="post" action="%s"><button type="submit">Log out</button></form>
    </body></html>
    """
        .formatted(
            HtmlReport.escape(message),
            PATH,
            HtmlReport.escape(Credentials.next(next)),
            LOGOUT_PATH);
  }
}
