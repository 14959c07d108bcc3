package dev.dht.operator.backup;

import dev.dht.contract.backup.NodeBackupStatus;

/**
 * What one node said when asked for its part of a backup ({@code GET /v0/admin/backup}): its
 * status, that it has no backup (404: it restarted since, or never started one), or nothing.
 */
public sealed interface NodeAnswer {
  /** It answered with the status of its last backup (which may be another one). */
  record Reported(NodeBackupStatus status) implements NodeAnswer {}

  /** It answered that it took no backup since it started; {@code text} is its answer. */
  record NoBackup(String text) implements NodeAnswer {}

  /** It did not answer (no pod, refused, timed out, another status); {@code why} says how. */
  record Unreachable(String why) implements NodeAnswer {}
}
