package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import dev.dht.node.storage.StorageException;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.WorkerExecutor;
import java.util.ArrayList;
import java.util.List;

/**
 * This node's own replica, as seen from one event loop. Operations submitted during one turn of the
 * loop are run together as one task on the bounded storage pool, so a burst of requests costs a few
 * thread hand-offs instead of one each. Results come back on the loop.
 */
public final class LocalReplica {
  private static final int MAX_OPS_PER_TASK = 64;

  private record Pending(ReplicaOp op, Promise<Record> promise) {}

  private final Storage storage;
  private final WorkerExecutor storagePool;
  private final Context loop;
  private List<Pending> pending = new ArrayList<>();

  /** Must be created on, and only used from, the event loop of {@code loop}. */
  public LocalReplica(Storage storage, WorkerExecutor storagePool, Context loop) {
    this.storage = storage;
    this.storagePool = storagePool;
    this.loop = loop;
  }

  /** Reads ({@code op.record()} null: the stored record or null) or writes (null) one key. */
  public Future<Record> apply(ReplicaOp op) {
    Promise<Record> promise = Promise.promise();
    if (pending.isEmpty()) {
      loop.runOnContext(v -> flush());
    }
    pending.add(new Pending(op, promise));
    return promise.future();
  }

  public Future<Record> get(byte[] key) {
    return apply(ReplicaOp.read(key));
  }

  public Future<Record> write(byte[] key, Record record) {
    return apply(ReplicaOp.write(key, record));
  }

  public Storage storage() {
    return storage;
  }

  public WorkerExecutor pool() {
    return storagePool;
  }

  private void flush() {
    List<Pending> all = pending;
    pending = new ArrayList<>();
    for (int from = 0; from < all.size(); from += MAX_OPS_PER_TASK) {
      List<Pending> task = all.subList(from, Math.min(all.size(), from + MAX_OPS_PER_TASK));
      storagePool
          .executeBlocking(() -> run(task), false)
          .onComplete(done -> {
            for (int i = 0; i < task.size(); i++) {
              Promise<Record> promise = task.get(i).promise();
              if (done.failed()) {
                promise.fail(done.cause());
              } else if (done.result().get(i).failed()) {
                promise.fail("storage failed");
              } else {
                promise.complete(done.result().get(i).record());
              }
            }
          });
    }
  }

  /** Runs on a storage worker; a failing op fails alone. */
  private List<BatchCodec.Result> run(List<Pending> task) {
    List<BatchCodec.Result> results = new ArrayList<>(task.size());
    for (Pending p : task) {
      try {
        if (p.op().isWrite()) {
          storage.putIfNewer(p.op().key(), p.op().record());
          results.add(BatchCodec.Result.ABSENT);
        } else {
          Record record = storage.get(p.op().key());
          results.add(
              record == null ? BatchCodec.Result.ABSENT : new BatchCodec.Result(record, false));
        }
      } catch (StorageException e) {
        results.add(BatchCodec.Result.FAILURE);
      }
    }
    return results;
  }
}
