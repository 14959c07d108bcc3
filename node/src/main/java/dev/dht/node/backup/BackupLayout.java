package dev.dht.node.backup;

import dev.dht.contract.backup.BackupIds;

/**
 * Where a backup's objects live under the cluster's prefix:
 *
 * <ul>
 *   <li>{@code files/<ab>/<sha256>}: every file of every checkpoint, named by its content, so a
 *       file already in the store (from an earlier backup, of any node) is never uploaded again;
 *   <li>{@code backups/<id>/nodes/<i>.json}: member i's manifest, written once its files are in;
 *   <li>{@code backups/<id>/backup.json}: the summary, written last, once every manifest and every
 *       file they list is in: a backup without it is not complete.
 * </ul>
 */
final class BackupLayout {
  static final String FILES = "files/";
  static final String BACKUPS = "backups/";

  private BackupLayout() {}

  static String file(String sha256) {
    if (!sha256.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("not a SHA-256: " + sha256);
    }
    return FILES + sha256.substring(0, 2) + "/" + sha256;
  }

  static String backup(String id) {
    return BACKUPS + BackupIds.require(id) + "/";
  }

  static String manifest(String id, int member) {
    return backup(id) + "nodes/" + member + ".json";
  }

  static String summary(String id) {
    return backup(id) + "backup.json";
  }

  /** The backup id of an object under {@code backups/}; null for any other. */
  static String backupOf(String name) {
    if (!name.startsWith(BACKUPS)) {
      return null;
    }
    int slash = name.indexOf('/', BACKUPS.length());
    return slash < 0 ? null : name.substring(BACKUPS.length(), slash);
  }
}
