package dev.dht.operator.rolling;

/**
 * A node pod as the API server shows it: whether it exists, is Ready, is being deleted, and the
 * revision it was created from (its template's annotation; null if unknown).
 */
public record PodState(
    int ordinal,
    String name,
    boolean exists,
    boolean ready,
    boolean terminating,
    PodRevision revision) {

  public static PodState missing(int ordinal, String name) {
    return new PodState(ordinal, name, false, false, false, null);
  }

  /** Runs and serves: exists, Ready, not being deleted. */
  public boolean up() {
    return exists && ready && !terminating;
  }

  /** Must restart to run {@code desired} (a pod of unknown revision need not). */
  public boolean outdated(DesiredRevision desired) {
    return exists && desired.needsRestart(revision);
  }
}
