package dev.dht.contract.backup;

/**
 * A backup's id names its objects in the store ({@code backups/<id>/...}): a Kubernetes-style name
 * (lower-case letters, digits, dashes and dots, at most 253 characters), so no id reaches outside
 * its folder.
 */
public final class BackupIds {
  private BackupIds() {}

  public static String require(String id) {
    if (id == null
        || id.length() > 253
        || !id.matches("[a-z0-9]([a-z0-9.-]*[a-z0-9])?")
        || id.contains("..")) {
      throw new IllegalArgumentException(
          "a backup id is lower-case letters, digits, '-' and '.', got '" + id + "'");
    }
    return id;
  }
}
