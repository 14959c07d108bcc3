package dev.dht.operator.backup;

import dev.dht.contract.backup.NodeBackupStatus;
import dev.dht.operator.backup.DhtBackupStatus.NodePart;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where a running backup stands, from what its nodes answered: each node's part for the status, and
 * whether the backup runs on, is ready to be sealed (every part completed), or failed (a part
 * failed, a node lost its part, or a node did not answer for {@link #UNREACHABLE_LIMIT}). Pure.
 */
public final class BackupProgress {
  /** How long a node may not answer before the backup fails: a restart takes less. */
  public static final Duration UNREACHABLE_LIMIT = Duration.ofMinutes(2);

  public static final String NODE_FAILED = "NodeFailed";
  public static final String NODE_LOST_BACKUP = "NodeLostBackup";
  public static final String NODE_UNREACHABLE = "NodeUnreachable";

  /** What follows for the backup. */
  public sealed interface Verdict {}

  /** Some parts still run. */
  public record Running() implements Verdict {}

  /** Every part completed: the backup is to be sealed. */
  public record AllCompleted() implements Verdict {}

  /** The backup failed: {@code reason} in one word, {@code message} in words. */
  public record Failed(String reason, String message) implements Verdict {}

  /** The parts by ordinal, and the verdict. */
  public record Progress(List<NodePart> parts, Verdict verdict) {}

  private BackupProgress() {}

  /**
   * The progress of backup {@code id} from the nodes' {@code answers} (by ordinal: every member),
   * given the {@code previous} parts (for how long a node has not answered) and the time now.
   */
  public static Progress of(
      String id, List<NodePart> previous, Map<Integer, NodeAnswer> answers, Instant now) {
    SortedMap<Integer, NodeAnswer> byOrdinal = new TreeMap<>(answers);
    List<NodePart> parts = new ArrayList<>();
    Failed failed = null;
    boolean allCompleted = !byOrdinal.isEmpty();
    for (var entry : byOrdinal.entrySet()) {
      int ordinal = entry.getKey();
      NodePart before = find(previous, ordinal).orElse(null);
      NodePart part = part(id, ordinal, before, entry.getValue(), now);
      parts.add(part);
      Failed why = failure(id, ordinal, entry.getValue(), part, now);
      if (failed == null) {
        failed = why;
      }
      allCompleted &= NodeBackupStatus.COMPLETED.equals(part.getPhase()) && why == null;
    }
    Verdict verdict = failed != null ? failed : allCompleted ? new AllCompleted() : new Running();
    return new Progress(List.copyOf(parts), verdict);
  }

  /** The part to show for one node: what it reported, or what was known with since when not. */
  private static NodePart part(
      String id, int ordinal, NodePart before, NodeAnswer answer, Instant now) {
    return switch (answer) {
      case NodeAnswer.Reported(var status) when id.equals(status.backup()) ->
          NodePart.builder()
              .ordinal(ordinal)
              .phase(status.phase())
              .filesTotal(status.filesTotal())
              .filesUploaded(status.filesUploaded())
              .filesReused(status.filesReused())
              .bytesUploaded(status.bytesUploaded())
              .bytesReused(status.bytesReused())
              .reason(status.reason())
              .build();
      case NodeAnswer.Reported r -> lost(ordinal, before);
      case NodeAnswer.NoBackup n -> lost(ordinal, before);
      case NodeAnswer.Unreachable u ->
          (before == null ? NodePart.builder().ordinal(ordinal) : before.toBuilder())
              .unreachableSince(
                  before != null && before.getUnreachableSince() != null
                      ? before.getUnreachableSince()
                      : now.toString())
              .build();
    };
  }

  /** A node whose part is gone: what was known of it, failed. */
  private static NodePart lost(int ordinal, NodePart before) {
    return (before == null ? NodePart.builder().ordinal(ordinal) : before.toBuilder())
        .phase(NodeBackupStatus.FAILED)
        .unreachableSince(null)
        .build();
  }

  /** Why this node's answer fails the backup, or null if it does not. */
  private static Failed failure(
      String id, int ordinal, NodeAnswer answer, NodePart part, Instant now) {
    return switch (answer) {
      case NodeAnswer.Reported(var status) when !id.equals(status.backup()) ->
          new Failed(
              NODE_LOST_BACKUP,
              "node "
                  + ordinal
                  + " reports backup "
                  + status.backup()
                  + ", not this one: it restarted or was asked for another, and its part is lost");
      case NodeAnswer.Reported(var status) when NodeBackupStatus.FAILED.equals(status.phase()) ->
          new Failed(NODE_FAILED, "node " + ordinal + " failed its part: " + status.reason());
      case NodeAnswer.Reported r -> null;
      case NodeAnswer.NoBackup(var text) ->
          new Failed(
              NODE_LOST_BACKUP,
              "node "
                  + ordinal
                  + " has no backup ("
                  + text
                  + "): it restarted during the backup, and its part is lost");
      case NodeAnswer.Unreachable(var why) -> {
        Instant since = Instant.parse(part.getUnreachableSince());
        yield Duration.between(since, now).compareTo(UNREACHABLE_LIMIT) > 0
            ? new Failed(
                NODE_UNREACHABLE,
                "node "
                    + ordinal
                    + " has not answered since "
                    + since
                    + " (more than "
                    + UNREACHABLE_LIMIT.toMinutes()
                    + " minutes): "
                    + why)
            : null;
      }
    };
  }

  private static Optional<NodePart> find(List<NodePart> parts, int ordinal) {
    return parts == null
        ? Optional.empty()
        : parts.stream()
            .filter(p -> p.getOrdinal() != null && p.getOrdinal() == ordinal)
            .findFirst();
  }
}
