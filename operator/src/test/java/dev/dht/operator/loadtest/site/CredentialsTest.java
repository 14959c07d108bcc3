package dev.dht.operator.loadtest.site;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.Headers;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CredentialsTest {
  static final String JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln-_bmF0dXJl";

  private static Headers headers(String... pairs) {
    var headers = new Headers();
    for (int i = 0; i < pairs.length; i += 2) {
      headers.add(pairs[i], pairs[i + 1]);
    }
    return headers;
  }

  @Test
  void theTokenComesFromTheBearerHeaderOrElseTheCookie() {
    assertThat(Credentials.token(headers("Authorization", "Bearer " + JWT))).isEqualTo(JWT);
    assertThat(Credentials.token(headers("Authorization", "bearer  " + JWT))).isEqualTo(JWT);
    assertThat(Credentials.token(headers("Cookie", "a=1; dht-reports-token=" + JWT + "; b=2")))
        .isEqualTo(JWT);
    assertThat(Credentials.token(headers("Cookie", "a=1", "Cookie", "dht-reports-token=" + JWT)))
        .isEqualTo(JWT);
    assertThat(
            Credentials.token(
                headers(
                    "Authorization", "Bearer header-token", "Cookie", "dht-reports-token=" + JWT)))
        .as("the header first")
        .isEqualTo("header-token");
  }

  @Test
  void anythingElseIsNoToken() {
    assertThat(Credentials.token(headers())).isNull();
    assertThat(Credentials.token(headers("Authorization", "Basic " + JWT))).isNull();
    assertThat(Credentials.token(headers("Authorization", "Bearer"))).isNull();
    assertThat(Credentials.token(headers("Authorization", "Bearer a b"))).isNull();
    assertThat(Credentials.token(headers("Cookie", "other-token=" + JWT))).isNull();
    assertThat(Credentials.token(headers("Cookie", "dht-reports-token="))).isNull();
    assertThat(Credentials.wellFormed("a;b")).isNull();
    assertThat(Credentials.wellFormed("a\r\nSet-Cookie: x")).isNull();
    char[] huge = new char[Credentials.MAX_TOKEN + 1];
    Arrays.fill(huge, 'a');
    assertThat(Credentials.wellFormed(new String(huge))).isNull();
    assertThat(Credentials.wellFormed(new String(huge, 1, Credentials.MAX_TOKEN))).isNotNull();
  }

  @Test
  void theCookieIsHttpOnlyStrictForTheSiteAndSecureOverTls() {
    assertThat(Credentials.loginCookie(JWT, false))
        .isEqualTo("dht-reports-token=" + JWT + "; Path=/reports; HttpOnly; SameSite=Strict");
    assertThat(Credentials.loginCookie(JWT, true)).endsWith("; SameSite=Strict; Secure");
    assertThat(Credentials.logoutCookie(false))
        .isEqualTo("dht-reports-token=; Path=/reports; HttpOnly; SameSite=Strict; Max-Age=0");
  }

  @Test
  void aLoginGoesOnToAPageOfTheSiteOnly() {
    for (String page :
        List.of(
            "/reports/",
            "/reports/team-a/",
            "/reports/team-a/put-10k/",
            "/reports/a/b/flame-demo-0-cpu.html")) {
      assertThat(Credentials.next(page)).isEqualTo(page);
    }
    for (String elsewhere :
        Arrays.asList(
            null,
            "",
            "https://evil.example/reports/",
            "//evil.example/reports/",
            "/reports//evil.example/",
            "/reports/../metrics",
            "/reports/a/?x=1",
            "/reports/a/b/c/d",
            "/reports/a\\b/",
            "/metrics",
            "javascript:alert(1)")) {
      assertThat(Credentials.next(elsewhere)).as(String.valueOf(elsewhere)).isEqualTo("/reports/");
    }
  }

  @Test
  void aFormPostComesFromTheSiteIfTheBrowserSaysSo() {
    assertThat(Credentials.fromTheSite(headers("Sec-Fetch-Site", "same-origin"), false)).isTrue();
    for (String site : List.of("cross-site", "same-site", "none")) {
      assertThat(
              Credentials.fromTheSite(
                  headers("Sec-Fetch-Site", site, "Origin", "http://h:1", "Host", "h:1"), false))
          .as(site)
          .isFalse();
    }
    assertThat(
            Credentials.fromTheSite(
                headers("Origin", "http://127.0.0.1:8081", "Host", "127.0.0.1:8081"), false))
        .isTrue();
    assertThat(
            Credentials.fromTheSite(
                headers("Origin", "https://dht.example", "Host", "dht.example"), true))
        .isTrue();
    assertThat(
            Credentials.fromTheSite(
                headers("Origin", "http://dht.example", "Host", "dht.example"), true))
        .as("scheme")
        .isFalse();
    assertThat(Credentials.fromTheSite(headers("Origin", "null", "Host", "127.0.0.1:8081"), false))
        .as("an opaque origin")
        .isFalse();
    assertThat(
            Credentials.fromTheSite(
                headers("Origin", "http://evil.example", "Host", "127.0.0.1:8081"), false))
        .isFalse();
    assertThat(Credentials.fromTheSite(headers("Host", "127.0.0.1:8081"), false))
        .as("curl")
        .isTrue();
  }

  @Test
  void theLoginFormPostsToTheSiteAndRunsNoScript() {
    String page = LoginPage.render("<b>no</b> token", "/reports/team-a/put-10k/");
    assertThat(page)
        .contains("<p id=\"message\">&lt;b&gt;no&lt;/b&gt; token</p>")
        .contains("<form method=\"post\" action=\"/reports/login\">")
        .contains("<input type=\"hidden\" name=\"next\" value=\"/reports/team-a/put-10k/\">")
        .contains("<form method=\"post\" action=\"/reports/logout\">")
        .doesNotContain("<script", "onload", "javascript:");
    assertThat(LoginPage.render("x", "\"><script>")).contains("name=\"next\" value=\"/reports/\"");
    assertThat(SiteHeaders.LOGIN_POLICY)
        .contains("default-src 'none'", "form-action 'self'", "frame-ancestors 'none'")
        .doesNotContain("script-src", "allow-scripts");
  }

  @Test
  void formsAreDecodedFirstNameWins() {
    assertThat(Login.form("token=a%2Bb%3D&next=%2Freports%2F&token=other&bad=%zz&novalue"))
        .isEqualTo(Map.of("token", "a+b=", "next", "/reports/"));
    assertThat(Login.form(null)).isEmpty();
  }
}
