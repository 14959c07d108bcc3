package dev.dht.node.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.node.it.Membership;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code make chaos}: for each nemesis, a fresh three-node cluster under a 2/3 {@link Workload}
 * while the nemesis strikes; then the cluster heals and the history is checked ({@link
 * HistoryCheck}): acknowledged writes lost, stale reads, deleted values back, and copies per key.
 * Every count must be zero. Bounded: about 5 minutes; prints a table and writes it to {@code
 * node/target/chaos.txt}. Not part of {@code make test} (tag {@code chaos}).
 */
@Tag("chaos")
class ChaosTest {
  /** A fault, injected while the workload runs; it returns once it has healed what it broke. */
  interface Nemesis {
    void strike(ChaosCluster cluster) throws Exception;
  }

  record Row(String nemesis, HistoryCheck.Verdict verdict, long wrongCopies, String error) {
    boolean clean() {
      return error == null && verdict != null && verdict.clean() && wrongCopies == 0;
    }
  }

  @TempDir Path root;

  @Test
  void noNemesisLosesAWriteServesAStaleReadOrBringsADeleteBack() throws Exception {
    Map<String, Nemesis> nemeses = new LinkedHashMap<>();
    nemeses.put(
        "kill -9",
        c -> {
          sleep(4);
          c.kill(1);
          sleep(8);
          c.launch(1);
          sleep(4);
        });
    nemeses.put(
        "SIGSTOP 8 s",
        c -> {
          sleep(4);
          c.pause(1);
          sleep(8);
          c.resume(1);
          sleep(4);
        });
    nemeses.put(
        "wiped data directory",
        c -> {
          sleep(4);
          c.wipe(2);
          sleep(6);
        });
    nemeses.put(
        "clock +2 min, -90 s, back",
        c -> {
          sleep(3);
          c.clock("+120s");
          sleep(6);
          c.clock("-90s");
          sleep(6);
          c.clock("+0s");
          sleep(4);
        });
    nemeses.put(
        "away 25 s, grace 10 s",
        c -> {
          sleep(3);
          c.kill(1);
          sleep(25);
          c.launch(1);
          sleep(5);
        });
    nemeses.put(
        "partitioned 25 s, grace 10 s",
        c -> {
          sleep(3);
          c.isolate(1, true);
          sleep(2);
          c.requireCutOff(1);
          sleep(23);
          c.isolate(1, false);
          sleep(5);
        });
    nemeses.put("scale 3 -> 5 -> 3", ChaosTest::scale);
    nemeses.put(
        "defaults 2/3 -> 2/2 -> 2/3",
        c -> {
          sleep(2);
          changeDefaults(c.members(), 2, "2/3", "2/2");
          changeDefaults(c.members(), 5, "2/2", "2/3");
          sleep(2);
        });

    String only = System.getProperty("chaos.only", ""); // e.g. -Dchaos.only=scale
    List<Row> rows = new ArrayList<>();
    for (var nemesis : nemeses.entrySet()) {
      if (!nemesis.getKey().contains(only)) {
        continue;
      }
      rows.add(run(nemesis.getKey(), nemesis.getValue()));
      System.out.println(table(rows.subList(rows.size() - 1, rows.size())));
    }
    String table = table(rows);
    System.out.println(table);
    Files.writeString(Path.of("target", "chaos.txt"), table);
    assertThat(rows).allMatch(Row::clean, "no loss, no stale read, no resurrection, right copies");
  }

  private Row run(String name, Nemesis nemesis) {
    History history = new History();
    Path dir = root.resolve(name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-"));
    try (ChaosCluster cluster = ChaosCluster.start(dir)) {
      try (Workload workload = new Workload(cluster.clientPorts(), history)) {
        workload.start();
        nemesis.strike(cluster);
      }
      cluster.heal();
      Map<String, Long> state = cluster.finalState(Workload.keys());
      return new Row(
          name, HistoryCheck.check(history.ops(), state), cluster.wrongCopies(state), null);
    } catch (Exception | AssertionError e) {
      e.printStackTrace();
      return new Row(name, null, -1, e.toString());
    }
  }

  /** Grows to five nodes and back while the workload runs, the way the operator drives it. */
  private static void scale(ChaosCluster cluster) throws Exception {
    Membership m = cluster.members();
    String n = "normal";
    sleep(2);
    cluster.launch(3); // through the peer network, as the others
    cluster.launch(4);
    m.publish(2, false, n, n, n, "joining", "joining");
    m.awaitEpoch(2, 0, 1, 2, 3, 4);
    m.stream(2, 0, 1, 2, 3, 4);
    m.publish(3, true, n, n, n, "joining", "joining");
    m.awaitEpoch(3, 0, 1, 2, 3, 4);
    m.publish(4, false, n, n, n, n, n);
    m.awaitEpoch(4, 0, 1, 2, 3, 4);
    m.cleanup(4, 0, 1, 2, 3, 4);
    m.publish(5, false, n, n, n, "leaving", "leaving");
    m.awaitEpoch(5, 0, 1, 2, 3, 4);
    m.stream(5, 0, 1, 2);
    m.publish(6, true, n, n, n, "leaving", "leaving");
    m.awaitEpoch(6, 0, 1, 2, 3, 4);
    m.publish(7, false, n, n, n, null, null);
    m.awaitEpoch(7, 0, 1, 2);
    m.node(3).close();
    m.node(4).close();
    m.cleanup(7, 0, 1, 2);
    sleep(2);
  }

  /**
   * Changes the default ack/from of requests that name neither (the workload's), the way the
   * operator drives it: joint writes, streams, reads from the next ring, the final defaults,
   * cleanup; epochs {@code epoch} to {@code epoch + 2}.
   */
  private static void changeDefaults(Membership m, long epoch, String from, String to)
      throws Exception {
    String n = "normal";
    m.publish(epoch, from, to, false, n, n, n);
    m.awaitEpoch(epoch, 0, 1, 2);
    m.stream(epoch, 0, 1, 2);
    m.publish(epoch + 1, from, to, true, n, n, n);
    m.awaitEpoch(epoch + 1, 0, 1, 2);
    m.publish(epoch + 2, to, null, false, n, n, n);
    m.awaitEpoch(epoch + 2, 0, 1, 2);
    m.cleanup(epoch + 2, 0, 1, 2);
  }

  private static String table(List<Row> rows) {
    StringBuilder out =
        new StringBuilder(
            String.format(
                "%-28s %8s %13s %5s %6s %12s %12s%n",
                "nemesis", "ops", "acknowledged", "lost", "stale", "resurrected", "wrong copies"));
    for (Row r : rows) {
      var v = r.verdict();
      if (v == null) {
        out.append(String.format("%-28s FAILED: %s%n", r.nemesis(), r.error()));
        continue;
      }
      out.append(
          String.format(
              "%-28s %8d %13d %5d %6d %12d %12s%s%n",
              r.nemesis(),
              v.operations(),
              v.acknowledged(),
              v.lost(),
              v.stale(),
              v.resurrected(),
              r.wrongCopies() < 0 ? "-" : Long.toString(r.wrongCopies()),
              r.error() == null ? "" : "  FAILED: " + r.error()));
      v.examples().forEach(e -> out.append("    ").append(e).append('\n'));
    }
    return out.toString();
  }

  private static void sleep(long seconds) throws InterruptedException {
    Thread.sleep(seconds * 1000);
  }
}
