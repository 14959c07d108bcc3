package dev.dht.operator.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class LoadTestTargetsTest {
  private static final LoadTestTargets TARGETS =
      LoadTestTargets.of(
          List.of(
              "http://allowed.example:8080",
              "http://*.perf.svc",
              "https://secure.example",
              "http://10.0.0.7:8080",
              "http://[::1]:8080"));

  private static boolean allowed(String url) {
    return TARGETS.check(url).allowed();
  }

  @Test
  void noRuleRefusesEveryTargetAndSaysOnlyClustersMayBeLoaded() {
    var decision = LoadTestTargets.of(List.of()).check("http://allowed.example:8080");
    assertThat(decision.allowed()).isFalse();
    assertThat(decision.url()).isNull();
    assertThat(decision.refusal().reason()).isEqualTo("TargetNotAllowed");
    assertThat(decision.refusal().message())
        .isEqualTo(
            "spec.targetUrl 'http://allowed.example:8080' is not allowed by the operator's policy:"
                + " policy.loadTestTargets is empty: only DhtClusters (spec.clusterRef) may be"
                + " load-tested here");
  }

  @Test
  void theListedHostsAndPortsAreAllowedAsTheyAreLoaded() {
    assertThat(TARGETS.check("http://allowed.example:8080").url())
        .isEqualTo("http://allowed.example:8080");
    assertThat(TARGETS.check("HTTP://Allowed.EXAMPLE:8080/").url())
        .as("scheme and host in lower case, the trailing slash dropped")
        .isEqualTo("http://allowed.example:8080");
    assertThat(TARGETS.check("http://allowed.example.:8080").url())
        .as("a trailing dot is the same name; the generators get it as written")
        .isEqualTo("http://allowed.example.:8080");
    assertThat(allowed("http://10.0.0.7:8080")).isTrue();
    assertThat(allowed("http://[0:0:0:0:0:0:0:1]:8080")).as("IPv6 in another form").isTrue();
  }

  @Test
  void aMissingPortIsTheSchemesDefault() {
    assertThat(allowed("http://a.perf.svc")).isTrue();
    assertThat(allowed("http://a.perf.svc:80")).isTrue();
    assertThat(allowed("http://a.perf.svc:8080")).isFalse();
    assertThat(allowed("https://secure.example")).isTrue();
    assertThat(allowed("https://secure.example:443")).isTrue();
    assertThat(allowed("http://secure.example:443")).as("the scheme counts").isFalse();
    assertThat(allowed("http://allowed.example")).as("the rule's port is 8080").isFalse();
  }

  @Test
  void textThatOnlyStartsLikeAnAllowedUrlLeadsElsewhereAndIsRefused() {
    assertThat(allowed("http://allowed.example:8080@evil.example:8080")).isFalse();
    assertThat(allowed("http://allowed.example@evil.example")).isFalse();
    assertThat(allowed("http://allowed.example:8080.evil.example")).isFalse();
    assertThat(allowed("http://allowed.example.evil.com:8080")).isFalse();
    assertThat(allowed("http://notallowed.example:8080")).isFalse();
    assertThat(allowed("http://10.0.0.7:80800")).isFalse();
    assertThat(allowed("http://10.0.0.70:8080")).isFalse();
    assertThat(allowed("http://[::1]:8080@evil")).isFalse();
    assertThat(allowed("http://allowed.example:8080/path")).isFalse();
    assertThat(allowed("http://allowed.example:8080?x=1")).isFalse();
    assertThat(allowed("http://allowed.example:8080#x")).isFalse();
    assertThat(allowed("ftp://allowed.example:8080")).isFalse();
    assertThat(allowed("allowed.example:8080")).isFalse();
    assertThat(allowed("http://allowed%2eexample:8080")).isFalse();
    assertThat(allowed("http://allowed_example:8080")).isFalse();
    assertThat(allowed("")).isFalse();
  }

  @Test
  void userInfoIsRefusedWithItsOwnReason() {
    var decision = TARGETS.check("http://user:pw@allowed.example:8080");
    assertThat(decision.allowed()).isFalse();
    assertThat(decision.refusal().message()).contains("user info");
  }

  @Test
  void aWildcardCoversTheNamesBelowItsDomainOnly() {
    assertThat(allowed("http://a.perf.svc")).isTrue();
    assertThat(allowed("http://a.b.perf.svc")).isTrue();
    assertThat(allowed("http://A.Perf.Svc.")).isTrue();
    assertThat(allowed("http://perf.svc")).as("not the domain itself").isFalse();
    assertThat(allowed("http://aperf.svc")).as("a label boundary").isFalse();
    assertThat(allowed("http://a.perf.svc.evil.com")).isFalse();
    assertThat(allowed("http://perf.svc@a.perf.svc")).isFalse();
  }

  @Test
  void aRefusalNamesTheRules() {
    assertThat(TARGETS.check("http://evil.example:8080").refusal().message())
        .isEqualTo(
            "spec.targetUrl 'http://evil.example:8080' is not allowed by the operator's policy:"
                + " it is none of policy.loadTestTargets: http://allowed.example:8080,"
                + " http://*.perf.svc, https://secure.example, http://10.0.0.7:8080,"
                + " http://[::1]:8080");
  }

  @Test
  void aRuleThatIsNotABaseUrlIsRefusedWhenTheOperatorStarts() {
    for (String bad :
        List.of(
            "allowed.example",
            "http://allowed.example/path",
            "http://user@allowed.example",
            "http://*",
            "http://*.10.0.0",
            "http://a.*.example",
            "ftp://allowed.example",
            "http://[::1]:8080x")) {
      assertThatThrownBy(() -> LoadTestTargets.of(List.of(bad)))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(bad);
    }
  }

  // --- properties: any host and port the policy lists, spelled in any of the ways that lead there

  @Provide
  Arbitrary<String> hosts() {
    // a letter first: java.net.URI (and so the load generator) takes no other last label
    var label =
        Combinators.combine(
                Arbitraries.chars().range('a', 'z'),
                Arbitraries.strings().withChars("abxyz09-").ofMaxLength(7))
            .as((first, rest) -> first + rest)
            .filter(l -> !l.endsWith("-"));
    return label.list().ofMinSize(1).ofMaxSize(4).map(labels -> String.join(".", labels));
  }

  @Property
  void anAllowedHostIsAllowedInAnyCaseWithOrWithoutItsTrailingDot(
      @ForAll("hosts") String host, @ForAll @IntRange(min = 1, max = 65535) int port) {
    var targets = LoadTestTargets.of(List.of("http://" + host + ":" + port));
    assertThat(targets.check("http://" + host + ":" + port).allowed()).isTrue();
    assertThat(
            targets.check("http://" + host.toUpperCase(Locale.ROOT) + ":" + port + "/").allowed())
        .isTrue();
    assertThat(targets.check("http://" + host + ".:" + port).allowed()).isTrue();
    assertThat(targets.check("HTTP://" + host + ":" + port).url())
        .isEqualTo("http://" + host + ":" + port);
  }

  @Property
  void anythingThatLeadsToAnotherHostPortOrSchemeIsRefused(
      @ForAll("hosts") String host,
      @ForAll @IntRange(min = 1, max = 65534) int port,
      @ForAll("hosts") String other) {
    var targets = LoadTestTargets.of(List.of("http://" + host + ":" + port));
    String base = "http://" + host + ":" + port;
    assertThat(targets.check(base + "@" + other).allowed()).isFalse();
    assertThat(targets.check("http://" + host + "@" + other + ":" + port).allowed()).isFalse();
    assertThat(targets.check("http://" + host + "." + other + ":" + port).allowed()).isFalse();
    assertThat(targets.check("http://" + host + ":" + (port + 1)).allowed()).isFalse();
    assertThat(targets.check("https://" + host + ":" + port).allowed()).isFalse();
    if (!other.equals(host)) {
      assertThat(targets.check("http://" + other + ":" + port).allowed()).isFalse();
    }
  }

  @Property
  void aWildcardAllowsExactlyTheNamesThatEndInDotDomain(
      @ForAll("hosts") String domain, @ForAll("hosts") String host) {
    var targets = LoadTestTargets.of(List.of("http://*." + domain));
    boolean below = host.endsWith("." + domain);
    assertThat(targets.check("http://" + host).allowed()).isEqualTo(below);
    assertThat(targets.check("http://" + host + "." + domain).allowed()).isTrue();
    assertThat(targets.check("http://" + domain).allowed()).isFalse();
  }

  @Provide
  Arbitrary<String> urlish() {
    var pieces =
        Arbitraries.of(
            "http://",
            "https://",
            "HTTP://",
            "a",
            "allowed.example",
            ":",
            "8080",
            "@",
            "/",
            "?",
            "#",
            ".",
            "[",
            "]",
            "::1",
            "%2e",
            "*",
            " ",
            "\u00e9",
            "evil",
            "..",
            "-",
            "_",
            "\\");
    return Combinators.combine(pieces.list().ofMaxSize(10), Arbitraries.just(""))
        .as((list, none) -> String.join("", list));
  }

  @Property
  void anyTextGetsADecisionNeverAnException(@ForAll("urlish") String url) {
    var decision = TARGETS.check(url);
    if (decision.allowed()) {
      // what the generators get is allowed as well, and leads to the same place
      assertThat(TARGETS.check(decision.url()).url()).isEqualTo(decision.url());
      assertThat(decision.url()).doesNotContain("@", "?", "#", " ");
    } else {
      assertThat(decision.refusal().reason()).isEqualTo("TargetNotAllowed");
    }
  }
}
