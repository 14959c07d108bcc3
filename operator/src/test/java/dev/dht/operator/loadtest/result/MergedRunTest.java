package dev.dht.operator.loadtest.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.GeneratorResult;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class MergedRunTest {
  /** What a generator hands over, with a histogram of the given latencies (microseconds). */
  static String result(
      int index, double target, double achieved, long start, long end, long... micros) {
    var h = new Histogram(1, 86_400_000_000L, 3);
    for (long v : micros) {
      h.recordValue(v);
    }
    var buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    String histogram =
        Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    return """
    {"tool":"dht-loadgen","targetRate":%s,"achievedRate":%s,"durationSeconds":10.0,\
    "requests":%d,"errors":1,"non2xx":2,"notFound":3,"warmedUp":true,\
    "windowStartMs":%d,"windowEndMs":%d,"generator":%d,"generators":2,"histogram":"%s"}\
    """
        .formatted(target, achieved, micros.length, start, end, index, histogram);
  }

  static long[] range(long from, long to) {
    return java.util.stream.LongStream.rangeClosed(from, to).toArray();
  }

  @Test
  void percentilesAreThoseOfTheUnionNeverAnAverage() {
    long[] fast = range(1_000, 2_000); // 1-2 ms
    long[] slow = range(50_000, 50_500); // 50-50.5 ms
    var merged =
        MergedRun.of(
            List.of(
                GeneratorResult.parse(result(1, 50, 50, 1_000, 11_000, slow)),
                GeneratorResult.parse(result(0, 100, 99.5, 1_010, 11_010, fast))),
            Map.of(0, "t-loadgen-0-a", 1, "t-loadgen-1-b"));

    var union = new Histogram(1, 86_400_000_000L, 3);
    for (long v : fast) {
      union.recordValue(v);
    }
    for (long v : slow) {
      union.recordValue(v);
    }
    var r = merged.summary().results();
    assertThat(r.getRequests()).isEqualTo(fast.length + slow.length);
    assertThat(r.getLatencyMs().getP50()).isEqualTo(union.getValueAtPercentile(50) / 1000.0);
    assertThat(r.getLatencyMs().getP90()).isEqualTo(union.getValueAtPercentile(90) / 1000.0);
    assertThat(r.getLatencyMs().getP99()).isEqualTo(union.getValueAtPercentile(99) / 1000.0);
    assertThat(r.getLatencyMs().getP999()).isEqualTo(union.getValueAtPercentile(99.9) / 1000.0);
    assertThat(r.getLatencyMs().getMax()).isEqualTo(union.getMaxValue() / 1000.0);
    // a third of the requests are slow: p90 is slow although one generator's p90 is 1.9 ms
    assertThat(r.getLatencyMs().getP90()).isGreaterThan(49.0);
    assertThat(r.getAchievedRate()).isEqualTo(149.5);
    assertThat(r.getErrors()).isEqualTo(2);
    assertThat(r.getNon2xx()).isEqualTo(4);
    assertThat(r.getNotFound()).isEqualTo(6);
    assertThat(merged.summary().targetRate()).isEqualTo(150.0);
    assertThat(r.getWindowOverlap()).isEqualTo(0.998); // 9990 of 10010 ms
    assertThat(merged.behind()).isEmpty();
    assertThat(merged.summary().generators())
        .extracting(DhtLoadTestStatus.Generator::getIndex, DhtLoadTestStatus.Generator::getPod)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, "t-loadgen-0-a"),
            org.assertj.core.groups.Tuple.tuple(1, "t-loadgen-1-b"));
    assertThat(merged.spectrum())
        .contains("Merged latency of 2 generators", "Detailed Percentile spectrum");
    var points = Wrk2Log.spectrum(merged.spectrum());
    assertThat(points).isNotEmpty();
    assertThat(points.getFirst().millis()).isEqualTo(1.0);
    assertThat(merged.summary().json()).contains("\"perGenerator\"", "\"generators\":2");
  }

  @Test
  void aGeneratorThatDidNotSendItsShareIsNamedButErrorsAreNotItsFault() {
    // 10 s at 100 req/s owes 1000 requests: 999 answered + 1 error is on schedule; 988 + 1 not
    var merged =
        MergedRun.of(
            List.of(
                GeneratorResult.parse(result(0, 100, 99.9, 0, 10_000, range(1, 999))),
                GeneratorResult.parse(result(1, 100, 98.8, 0, 10_000, range(1, 988)))),
            Map.of(0, "a", 1, "b"));

    assertThat(merged.behind())
        .singleElement()
        .asString()
        .contains("generator 1 (pod b) sent 98.9 of its 100 req/s");
  }

  @Test
  void aGeneratorStillWarmingUpMarksTheMergedRun() {
    var cold =
        result(1, 100, 100, 0, 10_000, 1_000).replace("\"warmedUp\":true", "\"warmedUp\":false");
    var merged =
        MergedRun.of(
            List.of(
                GeneratorResult.parse(result(0, 100, 100, 0, 10_000, 1_000)),
                GeneratorResult.parse(cold)),
            Map.of(0, "a", 1, "b"));

    assertThat(merged.summary().results().getWarmedUp()).isFalse();
    assertThat(merged.summary().generators().get(1).getWarmedUp()).isFalse();
    assertThat(merged.summary().describe())
        .endsWith("not warmed up: latency was still falling on a generator (status.generators)");
  }

  @Test
  void aGeneratorStoppedOnRequestIsNotBehindButSaysWhy() {
    var stopped =
        result(1, 100, 10, 0, 1_000, 1_000)
            .replace("\"generator\":1", "\"generator\":1,\"aborted\":\"p99\"");
    var merged =
        MergedRun.of(
            List.of(
                GeneratorResult.parse(result(0, 100, 100, 0, 10_000, range(1, 999))),
                GeneratorResult.parse(stopped)),
            Map.of(0, "a", 1, "b"));

    assertThat(merged.aborted()).isEqualTo("generator 1 (pod b) was stopped: p99");
    assertThat(merged.behind()).isEmpty();
  }

  @Test
  void windowsThatDoNotMeetOverlapByNothing() {
    var apart =
        List.of(
            GeneratorResult.parse(result(0, 1, 1, 0, 10_000, 1)),
            GeneratorResult.parse(result(1, 1, 1, 20_000, 30_000, 1)));
    var half =
        List.of(
            GeneratorResult.parse(result(0, 1, 1, 0, 10_000, 1)),
            GeneratorResult.parse(result(1, 1, 1, 5_000, 15_000, 1)));

    assertThat(MergedRun.overlap(apart)).isZero();
    assertThat(MergedRun.overlap(half)).isEqualTo(5_000 / 15_000.0);
  }

  @Test
  void anUnreadableResultSaysWhy() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> GeneratorResult.parse("{}"))
        .hasMessageContaining("no 'generator'");
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            GeneratorResult.parse(
                "{\"generator\":0,\"requests\":1,\"windowStartMs\":0,\"histogram\":\"!!\"}"))
        .hasMessageContaining("unreadable histogram");
  }
}
