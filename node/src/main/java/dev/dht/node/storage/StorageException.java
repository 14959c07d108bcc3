package dev.dht.node.storage;

/** A RocksDB failure, with the operation that failed in the message. */
public final class StorageException extends RuntimeException {
  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
