package dev.dht.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.contract.MembersFile.Member;
import dev.dht.contract.MembersFile.Replication;
import dev.dht.contract.MembersFile.State;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The operator's writer and the nodes' reader of the members file, against each other. */
class MembersFileTest {
  @Property
  void whatIsWrittenIsReadBack(
      @ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long epoch,
      @ForAll("replication") Replication replication,
      @ForAll("replication") Replication nextReplication,
      @ForAll boolean readNext,
      @ForAll("members") List<Member> members) {
    var file =
        new MembersFile(
            epoch, replication, replication == null ? null : nextReplication, readNext, members);
    assertThat(MembersFile.parse(file.write())).isEqualTo(file);
  }

  @Provide
  Arbitrary<Replication> replication() {
    return Combinators.combine(
            Arbitraries.integers().between(1, 9), Arbitraries.integers().between(0, 9))
        .as((ack, more) -> new Replication(ack, ack + more))
        .injectNull(0.3);
  }

  @Provide
  Arbitrary<List<Member>> members() {
    Arbitrary<String> urls =
        Arbitraries.integers()
            .between(0, 99)
            .map(i -> "http://demo-" + i + ".demo-peers.ns.svc.cluster.local:8080");
    Arbitrary<String> zones = Arbitraries.of("eu-west-1a", "zone-b", "z.3", "a").injectNull(0.4);
    return Combinators.combine(urls, Arbitraries.of(State.class), zones, zones)
        .as(Member::new)
        .list()
        .ofMaxSize(9);
  }

  @Test
  void readsTheFileOfAChangeAndAPlainList() {
    var file =
        MembersFile.parse(
            "# written by the operator\nepoch 7\nread-from next\n\nhttp://a:1\nhttp://b:2"
                + " joining\nhttp://c:3 leaving\nhttp://d:4 normal\n");
    assertThat(file)
        .isEqualTo(
            new MembersFile(
                7,
                true,
                List.of(
                    new Member("http://a:1", State.NORMAL),
                    new Member("http://b:2", State.JOINING),
                    new Member("http://c:3", State.LEAVING),
                    new Member("http://d:4", State.NORMAL))));
    assertThat(MembersFile.parse("http://a:1\nhttp://b:2\n"))
        .isEqualTo(
            new MembersFile(
                0,
                false,
                List.of(
                    new Member("http://a:1", State.NORMAL),
                    new Member("http://b:2", State.NORMAL))));
    assertThat(MembersFile.parse("").urls()).isEmpty();
  }

  @Test
  void readsTheReplicationDefaultsOfAChange() {
    var file = MembersFile.parse("epoch 3\nreplication 2/3\nnext-replication 3/5\nhttp://a:1\n");
    assertThat(file.replication()).isEqualTo(new Replication(2, 3));
    assertThat(file.nextReplication()).isEqualTo(new Replication(3, 5));
    assertThat(MembersFile.parse("http://a:1").replication()).isNull();
  }

  @Test
  void readsZones() {
    var file =
        MembersFile.parse(
            "epoch 2\nhttp://a:1 zone=eu-1a\nhttp://b:2 joining zone=eu-1b\nhttp://c:3");
    assertThat(file.members())
        .containsExactly(
            new Member("http://a:1", State.NORMAL, "eu-1a"),
            new Member("http://b:2", State.JOINING, "eu-1b"),
            new Member("http://c:3", State.NORMAL, null));
    assertThat(file.write()).contains("http://b:2 joining zone=eu-1b\n");
    var moving = MembersFile.parse("http://a:1 zone=eu-1a next-zone=eu-1c\nhttp://b:2 next-zone=z");
    assertThat(moving.members())
        .extracting(Member::zone, Member::zoneNext)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("eu-1a", "eu-1c"),
            org.assertj.core.groups.Tuple.tuple(null, "z"));
    assertThat(new Member("http://a:1", State.NORMAL, "z", "z").nextZone())
        .as("the same zone next is no change")
        .isNull();
    var takenAway = MembersFile.parse("http://a:1 zone=eu-1a next-zone=-\nhttp://b:2 next-zone=-");
    assertThat(takenAway.members())
        .extracting(Member::zone, Member::zoneNext)
        .as("next-zone=-: none in the next ring")
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("eu-1a", null),
            org.assertj.core.groups.Tuple.tuple(null, null));
    assertThat(takenAway.write()).contains("http://a:1 zone=eu-1a next-zone=-\n");
    assertThat(takenAway.members().get(1).nextZone()).as("none, and none next").isNull();
  }

  @Test
  void namesALineItCannotRead() {
    for (String bad :
        List.of(
            "epoch",
            "epoch 1 2",
            "read-from later",
            "http://a:1 gone",
            "a b c",
            "http://a:1 zone=a leaving",
            "http://a:1 normal zone=a zone=b",
            "http://a:1 next-zone=b zone=a",
            "replication 2",
            "replication 2/x",
            "next-replication",
            "replication 1/2 3")) {
      assertThatThrownBy(() -> MembersFile.parse(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("expected");
    }
    assertThatThrownBy(() -> MembersFile.parse("http://a:1 zone=-bad"))
        .hasMessageContaining("a zone is 1 to 63 letters");
    assertThatThrownBy(() -> MembersFile.parse("http://a:1 zone="))
        .hasMessageContaining("a zone is 1 to 63 letters");
    assertThatThrownBy(() -> MembersFile.parse("replication 3/2"))
        .hasMessageContaining("1 <= ack <= from");
    assertThatThrownBy(() -> MembersFile.parse("next-replication 2/3\nhttp://a:1"))
        .hasMessageContaining("needs a replication");
  }
}
