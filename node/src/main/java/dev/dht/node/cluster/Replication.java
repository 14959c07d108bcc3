package dev.dht.node.cluster;

/** How many replicas hold a key ({@code from}) and how many must confirm ({@code ack}). */
public record Replication(int ack, int from) {

  /** Cluster-wide defaults; zero means "not configured" (from = N, ack = majority of from). */
  public record Defaults(int ack, int from) {
    public static final Defaults UNCONFIGURED = new Defaults(0, 0);
  }

  /**
   * A request's ack and from in the ring that owns keys now and in the next one (the same outside
   * of a change of the defaults).
   */
  public record Rings(Replication current, Replication next) {}

  /** A request parameter that cannot be used; the message is the client-facing reason. */
  public static final class InvalidException extends IllegalArgumentException {
    public InvalidException(String message) {
      super(message);
    }
  }

  /**
   * Resolves the request's {@code ack}/{@code from} query values (null when absent) against the
   * defaults and the cluster size {@code n}, following API.md §2.
   */
  public static Replication resolve(String ackParam, String fromParam, Defaults defaults, int n) {
    Integer ack = parse("ack", ackParam);
    Integer from = parse("from", fromParam);
    int resolvedFrom = from != null ? from : defaultFrom(defaults, n);
    int resolvedAck;
    if (ack != null) {
      resolvedAck = ack;
    } else if (from == null && defaults.ack() > 0) {
      resolvedAck = Math.min(defaults.ack(), resolvedFrom);
    } else {
      resolvedAck = majority(resolvedFrom);
    }
    if (resolvedAck < 1 || resolvedAck > resolvedFrom || resolvedFrom > n) {
      throw new InvalidException(
          "need 1 <= ack <= from <= "
              + n
              + " (cluster size), got ack="
              + resolvedAck
              + " from="
              + resolvedFrom);
    }
    return new Replication(resolvedAck, resolvedFrom);
  }

  @Override
  public String toString() {
    return ack + "/" + from;
  }

  public static int majority(int from) {
    return from / 2 + 1;
  }

  private static int defaultFrom(Defaults defaults, int n) {
    return defaults.from() > 0 ? Math.min(defaults.from(), n) : n;
  }

  private static Integer parse(String name, String value) {
    if (value == null) {
      return null;
    }
    if (value.isEmpty()
        || value.length() > 9
        || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new InvalidException(name + " must be a positive integer, got '" + value + "'");
    }
    return Integer.parseInt(value);
  }
}
