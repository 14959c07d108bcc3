package dev.dht.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeIdsTest {
  private static final List<String> LOCAL =
      List.of("http://127.0.0.1:8080", "http://127.0.0.1:8081", "http://127.0.0.1:8082");

  @Test
  void anExplicitIdWins() {
    assertThat(NodeIds.resolve(17, "http://127.0.0.1:8081", LOCAL)).isEqualTo(17);
  }

  @Test
  void aStatefulSetPodIsItsOrdinal() {
    List<String> pods =
        List.of("http://dht-demo-0.dht-demo-peers.ns.svc:8080", "http://dht-demo-12.p:8080");
    assertThat(NodeIds.resolve(-1, "http://dht-demo-12.p:8080", pods)).isEqualTo(12);
    assertThat(NodeIds.resolve(-1, "http://DHT-demo-0.dht-demo-peers.ns.svc:8080/", pods)).isZero();
  }

  @Test
  void otherwiseItsPositionInTheMemberList() {
    assertThat(NodeIds.resolve(-1, "http://127.0.0.1:8082", LOCAL)).isEqualTo(2);
    assertThat(NodeIds.resolve(-1, "http://localhost:9000", List.of("http://localhost:9000")))
        .isZero();
  }

  @Test
  void anIdThatDoesNotFitATimestampIsRefused() {
    assertThatThrownBy(() -> NodeIds.resolve(256, "http://a:1", List.of("http://a:1")))
        .hasMessageContaining("--node-id");
    assertThatThrownBy(
            () -> NodeIds.resolve(-1, "http://dht-300.p:1", List.of("http://dht-300.p:1")))
        .hasMessageContaining("beyond 255");
  }
}
