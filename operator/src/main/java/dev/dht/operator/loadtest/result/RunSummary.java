package dev.dht.operator.loadtest.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dht.operator.loadtest.DhtLoadTestStatus;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Latency;
import dev.dht.operator.loadtest.DhtLoadTestStatus.Results;
import java.util.ArrayList;
import java.util.List;

/**
 * The load generator's compact JSON summary, as its pod's termination message carries it (at most 4
 * KiB): tool, workload, targetRate, achievedRate, requests, errors, non2xx, notFound,
 * latencyMs{p50..max}, p99ByThirdMs, warmedUp, ... Unknown fields are ignored; statusCounts may be
 * absent. Pure.
 *
 * @param json the message verbatim (stored in the report as summary.json)
 * @param generators each generator's line when several ran the test (empty: one did)
 */
public record RunSummary(
    String json,
    Results results,
    Double targetRate,
    Double durationSeconds,
    List<DhtLoadTestStatus.Generator> generators) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Parses the termination message; IllegalArgumentException says why it is not a summary. */
  public static RunSummary parse(String message) {
    if (message == null || message.isBlank()) {
      throw new IllegalArgumentException("the termination message is empty");
    }
    JsonNode root;
    try {
      root = JSON.readTree(message);
    } catch (Exception e) {
      throw new IllegalArgumentException("the termination message is not JSON: " + e.getMessage());
    }
    if (root == null || !root.isObject() || !root.path("requests").isNumber()) {
      throw new IllegalArgumentException("the termination message has no 'requests' count");
    }
    var latency = root.path("latencyMs");
    var results = new Results();
    results.setRequests(root.path("requests").asLong());
    results.setAchievedRate(number(root, "achievedRate"));
    results.setErrors(count(root, "errors"));
    results.setNon2xx(count(root, "non2xx"));
    results.setNotFound(count(root, "notFound"));
    results.setLatencyMs(
        new Latency(
            number(latency, "p50"),
            number(latency, "p90"),
            number(latency, "p99"),
            number(latency, "p999"),
            number(latency, "max")));
    var thirds = root.path("p99ByThirdMs");
    if (thirds.isArray() && thirds.size() == 3) {
      var p99s = new ArrayList<Double>();
      thirds.forEach(t -> p99s.add(t.asDouble()));
      results.setP99ByThirdMs(p99s);
    }
    if (root.path("warmedUp").isBoolean()) {
      results.setWarmedUp(root.path("warmedUp").asBoolean());
    }
    return new RunSummary(
        message.strip(),
        results,
        number(root, "targetRate"),
        number(root, "durationSeconds"),
        List.of());
  }

  /** A number, or null when absent or null (the generator writes null for NaN). */
  private static Double number(JsonNode node, String field) {
    var value = node.path(field);
    return value.isNumber() ? value.asDouble() : null;
  }

  private static long count(JsonNode node, String field) {
    var value = node.path(field);
    return value.isNumber() ? value.asLong() : 0L;
  }

  /** "600000 requests at 9998.7 req/s, p99 4.1 ms, 0 errors, 0 non-2xx". */
  public String describe() {
    var r = results;
    return r.getRequests()
        + " requests at "
        + Verdict.format(r.getAchievedRate())
        + " req/s"
        + (targetRate == null ? "" : " (target " + Verdict.format(targetRate) + ")")
        + ", p99 "
        + Verdict.format(r.getLatencyMs().getP99())
        + " ms, "
        + r.getErrors()
        + " errors, "
        + r.getNon2xx()
        + " non-2xx"
        + (Boolean.FALSE.equals(r.getWarmedUp()) ? "; " + notWarmedUp(r) : "");
  }

  /** "not warmed up: p99 fell from 992 ms (first third) to 9.1 ms (last third)". */
  static String notWarmedUp(Results r) {
    var thirds = r.getP99ByThirdMs();
    if (thirds == null || thirds.size() != 3) {
      // merged from several generators: each judged its own thirds
      return "not warmed up: latency was still falling on a generator (status.generators)";
    }
    return "not warmed up: p99 fell from "
        + Verdict.format(thirds.get(0))
        + " ms (first third) to "
        + Verdict.format(thirds.get(2))
        + " ms (last third)";
  }
}
