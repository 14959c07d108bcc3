package dev.dht.node.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DataStateTest {
  private static final List<String> THREE = List.of("http://a:1", "http://b:1", "http://c:1");
  private static final Topology MEMBER = Topology.of(THREE, "http://a:1");
  private static final Topology ONE_COPY =
      Topology.of(THREE, "http://a:1", new Replication.Defaults(1, 1));

  @Test
  void aNodeOnItsOwnDataServesAndHoldsDataFromBeforeItsStart() {
    var data = DataState.atStart(DataIdentity.Start.CONTINUOUS, false, MEMBER, () -> 42);
    assertThat(data.phase()).isEqualTo(DataState.Phase.SERVING);
    assertThat(data.heldDataSinceMillis()).isZero();
  }

  @Test
  void anEmptyMemberDecidesBeforeItServesAndHoldsDataFromItsFirstWrite() {
    long[] now = {1000};
    var data = DataState.atStart(DataIdentity.Start.EMPTY, false, MEMBER, () -> now[0]);
    assertThat(data.phase()).isEqualTo(DataState.Phase.DECIDING);
    assertThat(data.servesReads()).isFalse();
    assertThat(data.heldDataSinceMillis()).isEqualTo(DataState.NO_DATA);
    data.stored();
    now[0] = 2000;
    data.stored();
    assertThat(data.heldDataSinceMillis()).as("its first write").isEqualTo(1000);
    data.bootstrapping();
    assertThat(data.servesReads()).isFalse();
    data.serving();
    assertThat(data.servesReads()).isTrue();
  }

  @Test
  void aNodeOnItsOwnIncompleteDataDecidesAgain() {
    var data = DataState.atStart(DataIdentity.Start.CONTINUOUS, true, MEMBER, () -> 0);
    assertThat(data.phase()).isEqualTo(DataState.Phase.DECIDING);
    assertThat(data.heldDataSinceMillis()).isEqualTo(DataState.NO_DATA);
  }

  @Test
  void dataThatMayBeStaleTakesNoReadsNorWritesUntilChecked() {
    for (var start : List.of(DataIdentity.Start.RETURNING, DataIdentity.Start.FOREIGN)) {
      var data = DataState.atStart(start, false, MEMBER, () -> 0);
      assertThat(data.phase()).as("%s", start).isEqualTo(DataState.Phase.CHECKING);
      assertThat(data.servesReads()).isFalse();
      assertThat(data.acceptsWrites()).isFalse();
      assertThat(data.mustPull()).isEqualTo(start == DataIdentity.Start.FOREIGN);
      data.dropped(true);
      assertThat(data.phase()).isEqualTo(DataState.Phase.DECIDING);
      assertThat(data.acceptsWrites()).isTrue();
      assertThat(data.heldDataSinceMillis()).isEqualTo(DataState.NO_DATA);
    }
    var alone = Topology.of(List.of("http://a:1"), "http://a:1");
    assertThat(DataState.atStart(DataIdentity.Start.FOREIGN, false, alone, () -> 0).phase())
        .as("no peer could have purged anything")
        .isEqualTo(DataState.Phase.SERVING);
  }

  @Test
  void anEmptyNodeThatNoPeerCouldHoldDataForServesAtOnce() {
    var alone = Topology.of(List.of("http://a:1"), "http://a:1");
    assertThat(DataState.atStart(DataIdentity.Start.EMPTY, false, alone, () -> 0).phase())
        .as("one member")
        .isEqualTo(DataState.Phase.SERVING);
    assertThat(DataState.atStart(DataIdentity.Start.EMPTY, false, ONE_COPY, () -> 0).phase())
        .as("one replica of each key")
        .isEqualTo(DataState.Phase.SERVING);
    Map<String, Topology.State> states = new LinkedHashMap<>();
    THREE.forEach(url -> states.put(url, Topology.State.NORMAL));
    states.put("http://d:1", Topology.State.JOINING);
    var joining = Topology.of(2, states, false, "http://d:1");
    assertThat(DataState.atStart(DataIdentity.Start.EMPTY, false, joining, () -> 0).phase())
        .as("joining: a change of size streams its data")
        .isEqualTo(DataState.Phase.SERVING);
  }
}
