package dev.dht.loadgen.engine;

import java.util.random.RandomGenerator;

/**
 * Turns a slot into a request for one event loop: the operation from the workload (and the read
 * ratio for a mixed load) and the key from the distribution, or the slot itself for a fill. Not
 * thread-safe: one per event loop, each with its own seeded random source.
 */
final class RequestPlanner {
  private final Workload workload;
  private final KeyChooser keys;
  private final double readRatio;
  private final RandomGenerator random;
  private final KeyUris uris;

  RequestPlanner(
      Workload workload, KeyChooser keys, double readRatio, RandomGenerator random, KeyUris uris) {
    this.workload = workload;
    this.keys = keys;
    this.readRatio = readRatio;
    this.random = random;
    this.uris = uris;
  }

  PlannedRequest plan(long slot) {
    boolean put =
        switch (workload) {
          case PUT, FILL -> true;
          case GET -> false;
          case MIXED -> random.nextDouble() >= readRatio;
        };
    long key = workload == Workload.FILL ? slot : keys.next(random);
    return new PlannedRequest(put, uris.uri(key));
  }
}
