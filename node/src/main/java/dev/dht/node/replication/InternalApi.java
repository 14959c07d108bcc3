package dev.dht.node.replication;

/**
 * The node-to-node protocol: {@code POST /internal/v0/batch} with a {@link BatchCodec} body of
 * replica ops, answered 200 with their results in order. A coordinator sends everything it has for
 * one peer during one event-loop turn as one batch, so under load many client requests share one
 * internal round trip. Every internal request carries the cluster secret header when one is
 * configured, and the time left until the coordinator gives up on it ({@link #DEADLINE_HEADER}).
 * Public paths never reach this handler.
 */
public final class InternalApi {
  public static final String PREFIX = "/internal/";
  public static final String BATCH_PATH = PREFIX + "v0/batch";
  public static final String SECRET_HEADER = "X-Dht-Cluster-Secret";

  /** Milliseconds left until the coordinator's deadline; the replica drops work done later. */
  public static final String DEADLINE_HEADER = "X-Dht-Deadline-Ms";

  private InternalApi() {}
}
