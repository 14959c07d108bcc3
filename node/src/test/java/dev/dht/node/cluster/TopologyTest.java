package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyTest {
  private static final List<String> MEMBERS =
      List.of("http://10.0.0.1:8080", "http://10.0.0.2:8080", "http://10.0.0.3:8080");

  @Test
  void findsSelfAmongTheMembers() {
    Topology topology = Topology.of(MEMBERS, "http://10.0.0.2:8080");
    assertThat(topology.size()).isEqualTo(3);
    assertThat(topology.selfIndex()).isEqualTo(1);
    assertThat(topology.self()).isEqualTo("http://10.0.0.2:8080");
    assertThat(topology.isSelf(1)).isTrue();
    assertThat(topology.isSelf(0)).isFalse();
    assertThat(topology.member(2)).isEqualTo("http://10.0.0.3:8080");
  }

  @Test
  void normalisesCaseTrailingSlashAndWhitespaceAndDropsDuplicates() {
    Topology topology =
        Topology.of(
            List.of(
                " HTTP://Node-A.Example:8080/ ", "http://node-a.example:8080", "", "http://b:81"),
            "http://NODE-A.example:8080/");
    assertThat(topology.members()).containsExactly("http://node-a.example:8080", "http://b:81");
    assertThat(topology.selfIndex()).isZero();
  }

  @Test
  void selfMustBeAMember() {
    assertThatThrownBy(() -> Topology.of(MEMBERS, "http://10.0.0.4:8080"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("10.0.0.4");
  }

  @Test
  void rejectsAnEmptyClusterAndUrlsThatAreNotHttpHostPort() {
    assertThatThrownBy(() -> Topology.of(List.of(" ", ""), "http://a:1"))
        .isInstanceOf(IllegalArgumentException.class);
    for (String bad :
        new String[] {
          "https://a:8080", "http://a", "a:8080", "http://a:8080/path", "http://:8080"
        }) {
      assertThatThrownBy(() -> Topology.normalize(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void placementDoesNotDependOnMemberOrderOrWhichNodeIsSelf() {
    Topology a = Topology.of(MEMBERS, MEMBERS.get(0));
    Topology b = Topology.of(MEMBERS.reversed(), MEMBERS.get(2));
    for (int i = 0; i < 100; i++) {
      byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
      for (int from = 1; from <= 3; from++) {
        int[] viaA = a.replicas(key, from);
        int[] viaB = b.replicas(key, from);
        for (int r = 0; r < from; r++) {
          assertThat(b.member(viaB[r])).isEqualTo(a.member(viaA[r]));
        }
      }
    }
  }

  @Test
  void aMemberIsItsNormalisedUrlSoSpellingsAgreeOnPlacement() {
    Topology plain = Topology.of(MEMBERS, MEMBERS.get(0));
    Topology spelled =
        Topology.of(
            MEMBERS.stream().map(url -> url.toUpperCase().replace("HTTP", "http") + "/").toList(),
            MEMBERS.get(0));
    byte[] key = "some key".getBytes(StandardCharsets.UTF_8);
    assertThat(spelled.replicas(key, 3)).containsExactly(plain.replicas(key, 3));
  }
}
