package dev.dht.operator.loadtest.result;

import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.job.GeneratorProgress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Where a running test stands, from what its generators last reported: times, counts and rates
 * summed, the p99 of their measured histograms merged. The counts follow the generators' whole
 * seconds, so they are a view of the run, not its result. Pure.
 *
 * @param measured the union of the generators' measured latencies so far (microseconds)
 * @param failed measured requests that failed so far (errors + non-2xx)
 */
public record RunProgress(DhtLoadTestStatus.Progress status, Histogram measured, long failed) {

  public static RunProgress of(
      List<GeneratorProgress> seen, int count, Duration warmup, Duration duration) {
    var measured = new Histogram(3);
    double elapsed = 0;
    double measuredSeconds = 0;
    double rate = 0;
    long requests = 0;
    long errors = 0;
    long non2xx = 0;
    int answering = 0;
    for (var g : seen) {
      if (!g.answered()) {
        continue;
      }
      answering++;
      elapsed = Math.max(elapsed, g.elapsedSeconds());
      measuredSeconds = Math.max(measuredSeconds, g.measuredSeconds());
      requests += g.requests();
      errors += g.errors();
      non2xx += g.non2xx();
      if (g.measuredSeconds() >= 1) { // less: too few requests for a rate
        rate += g.requests() / g.measuredSeconds();
      }
      if (g.measured() != null) {
        measured.add(g.measured());
      }
    }
    double total = (warmup.toMillis() + duration.toMillis()) / 1000.0;
    double p99 = measured.getTotalCount() == 0 ? 0 : measured.getValueAtPercentile(99) / 1000.0;
    var status = new DhtLoadTestStatus.Progress();
    status.setElapsedSeconds(round(elapsed));
    status.setRemainingSeconds(round(Math.max(0, total - elapsed)));
    status.setRequests(requests);
    status.setErrors(errors);
    status.setNon2xx(non2xx);
    status.setAchievedRate(round(rate));
    status.setP99Ms(p99);
    String where =
        measuredSeconds > 0
            ? String.format(
                Locale.ROOT,
                "measuring %.0f/%d s, %s req/s, p99 %s ms",
                measuredSeconds,
                duration.toSeconds(),
                Verdict.format(round(rate)),
                Verdict.format(p99))
            : String.format(Locale.ROOT, "warm-up %.0f/%d s", elapsed, warmup.toSeconds());
    long warming = seen.stream().filter(g -> "warming".equals(g.phase())).count();
    if (elapsed == 0 && warming > 0) {
      where = warming + " of " + count + " generators warming their own JVMs";
    }
    if (answering < count) {
      where += ", " + (count - answering) + " of " + count + " generators not answering";
    }
    status.setSummary(where);
    return new RunProgress(status, measured, errors + non2xx);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
