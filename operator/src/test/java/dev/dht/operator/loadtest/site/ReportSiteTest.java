package dev.dht.operator.loadtest.site;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.LoadTests;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReportSiteTest {

  @Test
  void pathsNameTheIndexANamespaceATestOrAnArtifact() {
    assertThat(ReportSite.Page.of("/reports/")).isEqualTo(new ReportSite.Page(null, null, null));
    assertThat(ReportSite.Page.of("/reports/team-a/"))
        .isEqualTo(new ReportSite.Page("team-a", null, null));
    assertThat(ReportSite.Page.of("/reports/team-a/put-10k/"))
        .isEqualTo(new ReportSite.Page("team-a", "put-10k", null));
    assertThat(ReportSite.Page.of("/reports/team-a/put-10k/flame-demo-0-cpu.html"))
        .isEqualTo(new ReportSite.Page("team-a", "put-10k", "flame-demo-0-cpu.html"));
  }

  @Test
  void anythingElseIsNoPage() {
    for (String path :
        List.of(
            "/reports",
            "/reports/team-a",
            "/reports/team-a/put-10k",
            "/reports/team-a/put-10k/x/y",
            "/reports/../secrets/",
            "/reports/team-a/../x/",
            "/metrics")) {
      assertThat(ReportSite.Page.of(path)).as(path).isNull();
    }
  }

  @Test
  void onlyWatchedNamespacesAreServed() {
    assertThat(new ReportSite(null, Set.of("team-a"), null).serves("team-a")).isTrue();
    assertThat(new ReportSite(null, Set.of("team-a"), null).serves("kube-system")).isFalse();
    assertThat(new ReportSite(null, Set.of(), null).serves("anything")).as("watching all").isTrue();
  }

  @Test
  void theIndexListsEachTestWithItsVerdictAndLinksItsPage() {
    var test = LoadTests.test("put-10k", "demo");
    var status = new DhtLoadTestStatus();
    status.setPhase("Succeeded");
    status.setVerdict("Passed");
    test.setStatus(status);
    String html = ReportIndex.render(null, List.of(test));
    assertThat(html)
        .contains("<a href=\"/reports/ns/put-10k/\">put-10k</a>")
        .contains("<td class=\"Passed\">Passed</td>")
        .contains("Succeeded");
  }
}
