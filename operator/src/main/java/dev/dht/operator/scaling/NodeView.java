package dev.dht.operator.scaling;

/**
 * One node as the operator observed it: whether its pod is Ready, and (if its admin endpoint
 * answered) the membership epoch it runs with and the epochs its last stream and cleanup completed
 * for, and whether one runs. {@code epoch} is -1 when the node did not answer.
 */
public record NodeView(
    int ordinal,
    boolean podReady,
    long epoch,
    long streamedEpoch,
    boolean streaming,
    long cleanedEpoch,
    boolean cleaning) {
  public static NodeView unreachable(int ordinal, boolean podReady) {
    return new NodeView(ordinal, podReady, -1, -1, false, -1, false);
  }

  public boolean answered() {
    return epoch >= 0;
  }
}
