package dev.dht.node.profiling;

import io.vertx.core.json.JsonObject;

/**
 * The JVM's CPU time per request served, before a profile (the traffic of the seconds before it
 * started: in a load test, its warm-up at the same rate) and during it: what profiling cost this
 * node. Pure.
 */
record CpuPerRequest(double beforeMs, double duringMs, long requestsBefore, long requestsDuring) {
  /** Fewer requests than this in a window: too few to say. */
  static final long MIN_REQUESTS = 200;

  /** One reading of the JVM's CPU time and of the requests it served so far. */
  record Sample(long cpuNanos, long requests) {}

  /** From readings at the start of the window before, the profile's start and its end. */
  static CpuPerRequest of(Sample before, Sample start, Sample end) {
    return new CpuPerRequest(
        perRequestMs(before, start),
        perRequestMs(start, end),
        start.requests() - before.requests(),
        end.requests() - start.requests());
  }

  private static double perRequestMs(Sample from, Sample to) {
    long requests = to.requests() - from.requests();
    return requests <= 0 ? Double.NaN : (to.cpuNanos() - from.cpuNanos()) / 1e6 / requests;
  }

  boolean measured() {
    return requestsBefore >= MIN_REQUESTS && requestsDuring >= MIN_REQUESTS;
  }

  /** The change of CPU per request while profiling, in percent. */
  double changePercent() {
    return (duringMs / beforeMs - 1) * 100;
  }

  JsonObject toJson() {
    JsonObject json =
        new JsonObject()
            .put("requestsBefore", requestsBefore)
            .put("requestsDuring", requestsDuring);
    if (!measured()) {
      return json.put(
          "unmeasured", "fewer than " + MIN_REQUESTS + " requests before or during the profile");
    }
    return json.put("cpuMsPerRequestBefore", round(beforeMs))
        .put("cpuMsPerRequestDuring", round(duringMs))
        .put("changePercent", Math.round(changePercent() * 10) / 10.0);
  }

  private static double round(double ms) {
    return Math.round(ms * 10_000) / 10_000.0;
  }
}
