package dev.dht.node.backup;

import dev.dht.contract.backup.BackupJson;
import java.util.List;

/**
 * One member's part of a backup: its checkpoint's files (by name in the checkpoint, content digest
 * and size), taken in membership {@code epoch}, with the hybrid-clock bounds of what it holds.
 *
 * @param member this member's index in {@code members}
 * @param cut taken before the checkpoint: every write the member stored before it is in it
 * @param newest an upper bound of every timestamp in the checkpoint
 */
record NodeManifest(
    int format,
    String backup,
    int member,
    long epoch,
    List<String> members,
    int from,
    long cut,
    long newest,
    long createdMillis,
    List<File> files,
    int filesUploaded,
    long bytesUploaded) {
  static final int FORMAT = 1;

  /** The largest manifest read: some hundred bytes per file, for thousands of files. */
  static final int MAX_BYTES = 16 << 20;

  record File(String name, String sha256, long size) {
    File {
      // a file name inside the checkpoint's directory: no path
      if (name == null || !name.matches("[A-Za-z0-9._-]{1,255}") || name.startsWith("..")) {
        throw new IllegalArgumentException("not a checkpoint file name: " + name);
      }
      BackupLayout.file(sha256);
      if (size < 0) {
        throw new IllegalArgumentException("negative size of " + name);
      }
    }
  }

  NodeManifest {
    if (format != FORMAT) {
      throw new IllegalArgumentException("manifest format " + format + " is not " + FORMAT);
    }
    members = List.copyOf(members);
    files = List.copyOf(files);
    if (member < 0 || member >= members.size()) {
      throw new IllegalArgumentException("member " + member + " of " + members.size());
    }
  }

  long bytes() {
    return files.stream().mapToLong(File::size).sum();
  }

  String toJson() {
    return BackupJson.write(this);
  }

  static NodeManifest parse(String json) {
    return BackupJson.read(json, NodeManifest.class);
  }
}
