package dev.dht.node.replication;

import dev.dht.node.storage.Record;

/**
 * The node-to-node protocol: {@code POST /internal/v0/batch} with a {@link BatchCodec} body of
 * replica ops, answered 200 with their results in order. A coordinator sends everything it has for
 * one peer during one event-loop turn as one batch, so under load many client requests share one
 * internal round trip. Every internal request carries the cluster secret header when one is
 * configured, and the time left until the coordinator gives up on it ({@link #DEADLINE_HEADER}).
 * Every internal answer carries the answering node's wall clock ({@link #WALL_CLOCK_HEADER}), so
 * that each exchange also measures the offset between the two clocks; {@code GET
 * /internal/v0/clock} answers only that, for peers with nothing else to send. Public paths never
 * reach this handler.
 */
public final class InternalApi {
  public static final String PREFIX = "/internal/";
  public static final String BATCH_PATH = PREFIX + "v0/batch";
  public static final String SECRET_HEADER = "X-Dht-Cluster-Secret";

  /** Milliseconds left until the coordinator's deadline; the replica drops work done later. */
  public static final String DEADLINE_HEADER = "X-Dht-Deadline-Ms";

  /** The answering node's wall clock, in ms since the epoch, on every internal answer. */
  public static final String WALL_CLOCK_HEADER = "X-Dht-Wall-Clock-Ms";

  /** Answers 204 with {@link #WALL_CLOCK_HEADER} alone: a clock sample for an idle peer. */
  public static final String CLOCK_PATH = PREFIX + "v0/clock";

  /** The node's admin status, for a peer deciding whether it bootstraps (on the peer port). */
  public static final String STATUS_PATH = PREFIX + "v0/status";

  /** A batch body carries at most this many maximal ops' worth of bytes. */
  private static final int MAX_BATCH_OPS_AT_LIMIT = 16;

  private InternalApi() {}

  /** The bytes one op takes in a batch body: kind, key length, key, record length, record. */
  public static long opBytes(int keyBytes, int recordBytes) {
    return 1L + 4 + keyBytes + 4 + recordBytes;
  }

  /** The largest batch body a replica reads, for the node's key and value limits. */
  public static int maxBatchBytes(int maxKeyBytes, int maxValueBytes) {
    long bytes = MAX_BATCH_OPS_AT_LIMIT * opBytes(maxKeyBytes, maxValueBytes + Record.HEADER_BYTES);
    return (int) Math.min(bytes, Integer.MAX_VALUE - 16);
  }
}
