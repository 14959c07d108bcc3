package dev.dht.operator.rolling;

/**
 * A node pod as the API server shows it: whether it exists, is Ready, is being deleted, and the
 * config hash it was created with (its template's annotation; null if unknown).
 */
public record PodState(
    int ordinal,
    String name,
    boolean exists,
    boolean ready,
    boolean terminating,
    String configHash) {

  public static PodState missing(int ordinal, String name) {
    return new PodState(ordinal, name, false, false, false, null);
  }

  /** Runs and serves: exists, Ready, not being deleted. */
  public boolean up() {
    return exists && ready && !terminating;
  }

  /** Was created with other settings than {@code desiredHash} (a pod of unknown hash is not). */
  public boolean outdated(String desiredHash) {
    return exists && configHash != null && !configHash.equals(desiredHash);
  }
}
