package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;

/**
 * This node's own replica: storage calls moved off the event loop onto the bounded storage pool.
 * Results come back on the calling event loop.
 */
public final class LocalReplica {
  private final Storage storage;
  private final WorkerExecutor storagePool;

  public LocalReplica(Storage storage, WorkerExecutor storagePool) {
    this.storage = storage;
    this.storagePool = storagePool;
  }

  public Future<Record> get(byte[] key) {
    return storagePool.executeBlocking(() -> storage.get(key), false);
  }

  /** Stores the record if it is newer than the stored one; completes with null either way. */
  public Future<Record> write(byte[] key, Record record) {
    return storagePool.executeBlocking(
        () -> {
          storage.putIfNewer(key, record);
          return null;
        },
        false);
  }

  public Storage storage() {
    return storage;
  }

  public WorkerExecutor pool() {
    return storagePool;
  }
}
