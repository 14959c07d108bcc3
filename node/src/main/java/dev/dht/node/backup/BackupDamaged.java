package dev.dht.node.backup;

/**
 * A backup in the store is not as it was taken: a document or file missing, a file whose content
 * does not match its digest, a checkpoint RocksDB finds corrupt or incomplete, a record that does
 * not decode or is stamped after its manifest's bound. Unlike an unreachable store, trying again
 * does not help.
 */
final class BackupDamaged extends RuntimeException {
  BackupDamaged(String message) {
    super(message);
  }

  BackupDamaged(String message, Throwable cause) {
    super(message, cause);
  }
}
