package dev.dht.loadgen.engine;

import java.util.random.RandomGenerator;

/**
 * Picks a key index in {@code [0, keyspace)}; the random source is the caller's (one per thread).
 */
interface KeyChooser {
  long next(RandomGenerator random);

  static KeyChooser uniform(long keyspace) {
    if (keyspace < 1) {
      throw new IllegalArgumentException("keyspace must be >= 1");
    }
    return random -> random.nextLong(keyspace);
  }
}
