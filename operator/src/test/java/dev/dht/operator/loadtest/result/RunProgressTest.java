package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.job.GeneratorProgress;
import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RunProgressTest {
  static GeneratorProgress measuring(int index, double measured, long requests, long micros) {
    var h = new Histogram(3);
    h.recordValueWithCount(micros, requests);
    return new GeneratorProgress(
        index,
        "p" + index,
        "http://x",
        "running",
        1L,
        5 + measured,
        true,
        measured,
        requests,
        1,
        2,
        h);
  }

  @Test
  void generatorsAddUpAndTheirLatenciesMerge() {
    var progress =
        RunProgress.of(
                List.of(measuring(0, 10, 1_500, 1_000), measuring(1, 10, 1_500, 90_000)),
                2,
                Duration.ofSeconds(5),
                Duration.ofSeconds(30))
            .status();

    assertThat(progress.getElapsedSeconds()).isEqualTo(15.0);
    assertThat(progress.getRemainingSeconds()).isEqualTo(20.0);
    assertThat(progress.getRequests()).isEqualTo(3_000);
    assertThat(progress.getErrors()).isEqualTo(2);
    assertThat(progress.getNon2xx()).isEqualTo(4);
    assertThat(progress.getAchievedRate()).isEqualTo(300.0);
    assertThat(progress.getP99Ms()).isCloseTo(90.0, org.assertj.core.data.Offset.offset(0.1));
    assertThat(progress.getSummary()).startsWith("measuring 10/30 s, 300 req/s, p99 90");
  }

  @Test
  void aSilentGeneratorIsNamedAndTheWarmUpShown() {
    var warming =
        new GeneratorProgress(0, "p0", "http://x", "running", 1L, 3, false, 0, 0, 0, 0, null);
    var progress =
        RunProgress.of(
                List.of(warming, GeneratorProgress.silent(1, "p1", null)),
                2,
                Duration.ofSeconds(5),
                Duration.ofSeconds(30))
            .status();

    assertThat(progress.getSummary()).isEqualTo("warm-up 3/5 s, 1 of 2 generators not answering");
  }

  @Test
  void generatorsThatWarmTheirOwnJvmsSaySo() {
    var warming =
        new GeneratorProgress(0, "p0", "http://x", "warming", null, 0, false, 0, 0, 0, 0, null);
    var waiting =
        new GeneratorProgress(1, "p1", "http://x", "waiting", null, 0, false, 0, 0, 0, 0, null);
    var progress =
        RunProgress.of(List.of(warming, waiting), 2, Duration.ofSeconds(5), Duration.ofSeconds(30))
            .status();

    assertThat(progress.getSummary()).isEqualTo("1 of 2 generators warming their own JVMs");
  }
}
