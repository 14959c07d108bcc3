package dev.dht.node.backup;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Deleting backups from the store, and the files no backup needs any more. A file is deleted only
 * if no manifest in the store lists it (complete backup or not) and it is older than a grace
 * period: a backup running meanwhile has uploaded files whose manifest is not written yet.
 */
final class BackupPrune {
  /** What a collection did. */
  record Collected(int deleted, long bytesDeleted, int kept) {
    String toJson() {
      return "{\"deleted\":"
          + deleted
          + ",\"bytesDeleted\":"
          + bytesDeleted
          + ",\"kept\":"
          + kept
          + "}";
    }
  }

  private BackupPrune() {}

  /** Deletes every object of backup {@code id} (its manifests, then its summary); how many. */
  static int deleteBackup(ObjectStore store, String id) {
    List<String> names = new ArrayList<>();
    for (S3Object object : store.list(BackupLayout.backup(id))) {
      names.add(store.relative(object));
    }
    int count = names.size();
    String summary = BackupLayout.summary(id);
    // the summary goes first: a backup is never complete with a manifest already gone
    if (names.remove(summary)) {
      store.delete(List.of(summary));
    }
    store.delete(names);
    return count;
  }

  /** Deletes the files no manifest lists that are older than {@code grace}. */
  static Collected collect(ObjectStore store, Duration grace, Instant now) throws IOException {
    Set<String> needed = new HashSet<>();
    for (S3Object object : store.list(BackupLayout.BACKUPS)) {
      String name = store.relative(object);
      if (name.contains("/nodes/") && name.endsWith(".json")) {
        String text = store.get(name, NodeManifest.MAX_BYTES);
        if (text != null) {
          NodeManifest.parse(text).files().forEach(f -> needed.add(BackupLayout.file(f.sha256())));
        }
      }
    }
    List<String> unneeded = new ArrayList<>();
    long bytes = 0;
    int kept = 0;
    for (S3Object object : store.list(BackupLayout.FILES)) {
      String name = store.relative(object);
      if (!needed.contains(name) && object.lastModified().isBefore(now.minus(grace))) {
        unneeded.add(name);
        bytes += object.size();
      } else {
        kept++;
      }
    }
    store.delete(unneeded);
    return new Collected(unneeded.size(), bytes, kept);
  }
}
