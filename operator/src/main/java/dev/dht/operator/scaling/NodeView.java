package dev.dht.operator.scaling;

import dev.dht.contract.AdminStatus;
import java.util.List;

/**
 * One node as the operator observed it: whether its pod is Ready, and (if its admin endpoint
 * answered) the membership epoch it runs with and the epochs its last stream and cleanup completed
 * for, whether one runs, and what else it reports ({@link Report}). {@code epoch} is -1 when the
 * node did not answer.
 */
public record NodeView(
    int ordinal,
    boolean podReady,
    long epoch,
    long streamedEpoch,
    boolean streaming,
    long cleanedEpoch,
    boolean cleaning,
    Report report) {

  /**
   * What else a node reports: the hints it holds for others, the default ack/from it serves, its
   * estimated key count and SST bytes (-1 where unknown), the fingerprints of the cluster secrets
   * it sends and accepts, its data phase, the revision of the users document it holds (-1: none, or
   * a node that does not say), and whether it places by the zones of the members file.
   */
  public record Report(
      long pendingHints,
      int defaultAck,
      int defaultFrom,
      long estimatedKeys,
      long sstBytes,
      List<String> secretFingerprints,
      String dataPhase,
      long usersRevision,
      boolean placesByZone) {
    public static final Report NONE = new Report(0, -1, -1, -1, -1, List.of(), null, -1, false);

    public Report(
        long pendingHints, int defaultAck, int defaultFrom, long estimatedKeys, long sstBytes) {
      this(
          pendingHints,
          defaultAck,
          defaultFrom,
          estimatedKeys,
          sstBytes,
          List.of(),
          null,
          -1,
          true);
    }
  }

  public NodeView(
      int ordinal,
      boolean podReady,
      long epoch,
      long streamedEpoch,
      boolean streaming,
      long cleanedEpoch,
      boolean cleaning) {
    this(ordinal, podReady, epoch, streamedEpoch, streaming, cleanedEpoch, cleaning, Report.NONE);
  }

  /** What a node's admin status says (a node of another version may leave parts out). */
  public static NodeView of(int ordinal, boolean podReady, AdminStatus status) {
    var stream = status.stream();
    var cleanup = status.cleanup();
    var storage = status.storage();
    return new NodeView(
        ordinal,
        podReady,
        status.epoch(),
        stream == null ? -1 : stream.completedEpoch(),
        stream != null && stream.running(),
        cleanup == null ? -1 : cleanup.completedEpoch(),
        cleanup != null && cleanup.running(),
        new Report(
            status.hints() == null ? 0 : status.hints().pending(),
            status.defaultAck(),
            status.defaultFrom(),
            storage == null ? -1 : storage.estimatedKeys(),
            storage == null ? -1 : storage.sstBytes(),
            status.secretFingerprints() == null
                ? List.of()
                : List.copyOf(status.secretFingerprints()),
            status.bootstrap() == null ? null : status.bootstrap().phase(),
            status.usersRevision() == null ? -1 : status.usersRevision(),
            status.supports(AdminStatus.ZONES)));
  }

  public static NodeView unreachable(int ordinal, boolean podReady) {
    return new NodeView(ordinal, podReady, -1, -1, false, -1, false);
  }

  public boolean answered() {
    return epoch >= 0;
  }

  /**
   * Whether it answered, serves reads (it is not bootstrapping after an empty start) and has
   * nothing left to hand over: no hints held, no stream running.
   */
  public boolean caughtUp() {
    return answered() && servesReads() && report.pendingHints() == 0 && !streaming && !cleaning;
  }

  /** Whether it answered and places by the zones of the members file. */
  public boolean placesByZone() {
    return answered() && report.placesByZone();
  }

  /** Whether it serves reads; a node of a version that does not say so does. */
  public boolean servesReads() {
    return report.dataPhase() == null || AdminStatus.Bootstrap.SERVING.equals(report.dataPhase());
  }
}
