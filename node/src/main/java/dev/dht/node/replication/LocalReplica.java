package dev.dht.node.replication;

import dev.dht.node.bootstrap.DataState;
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
 * This node's own replica, as seen from one event loop. A read whose data is in memory is answered
 * at once, on the loop; other operations submitted during one turn of the loop are run together as
 * one task on the bounded storage pool, so a burst of requests costs a few thread hand-offs instead
 * of one each. Results come back on the loop.
 */
public final class LocalReplica {
  private static final int MAX_OPS_PER_TASK = 64;

  /** A read of a replica that may miss data (it started empty and is still bootstrapping). */
  private static final String NOT_SERVING_READS = "this replica is bootstrapping: no reads yet";

  /** A write to a replica whose data may yet be dropped (started on data that may be stale). */
  private static final String NOT_ACCEPTING_WRITES =
      "this replica is checking whether its data is stale: no writes yet";

  private record Pending(ReplicaOp op, long deadlineNanos, Promise<Record> promise) {}

  private final Storage storage;
  private final DataState data;
  private final WorkerExecutor storagePool;
  private final Context loop;
  private List<Pending> pending = new ArrayList<>();

  /** Must be created on, and only used from, the event loop of {@code loop}. */
  public LocalReplica(Storage storage, DataState data, WorkerExecutor storagePool, Context loop) {
    this.storage = storage;
    this.data = data;
    this.storagePool = storagePool;
    this.loop = loop;
  }

  /**
   * Reads ({@code op.record()} null: the stored record or null) or writes one key (null: stored;
   * else the version at least as new that kept it out); an op still queued at {@code deadlineNanos}
   * ({@link System#nanoTime}) is dropped and fails, since whoever asked has given up on it.
   */
  public Future<Record> apply(ReplicaOp op, long deadlineNanos) {
    if (op.isWrite() && !data.acceptsWrites()) {
      return Future.failedFuture(NOT_ACCEPTING_WRITES);
    }
    if (!op.isWrite()) {
      if (!data.servesReads()) {
        return Future.failedFuture(NOT_SERVING_READS);
      }
      try {
        Record inMemory = storage.getIfInMemory(op.key());
        if (inMemory != Storage.NOT_IN_MEMORY) {
          return Future.succeededFuture(inMemory);
        }
      } catch (StorageException e) {
        return Future.failedFuture(e);
      }
    }
    Promise<Record> promise = Promise.promise();
    if (pending.isEmpty()) {
      loop.runOnContext(v -> flush());
    }
    pending.add(new Pending(op, deadlineNanos, promise));
    return promise.future();
  }

  public Storage storage() {
    return storage;
  }

  public DataState data() {
    return data;
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

  /**
   * Runs on a storage worker: the task's writes as one atomic batch (one WAL append), then its
   * reads, which therefore see the writes. A write that a version at least as new kept out answers
   * with that version. A failed read fails alone; failed writes fail together; ops past their
   * deadline fail without touching storage.
   */
  private List<BatchCodec.Result> run(List<Pending> task) {
    long now = System.nanoTime();
    List<byte[]> keys = new ArrayList<>();
    List<Record> records = new ArrayList<>();
    for (Pending p : task) {
      if (p.op().isWrite() && !expired(p, now)) {
        keys.add(p.op().key());
        records.add(p.op().record());
      }
    }
    Record[] kept = null;
    if (!keys.isEmpty()) {
      try {
        kept = storage.putAllIfNewer(keys, records);
      } catch (StorageException e) {
        // every write of the task fails
      }
    }
    List<BatchCodec.Result> results = new ArrayList<>(task.size());
    int write = 0;
    for (Pending p : task) {
      if (expired(p, now)) {
        results.add(BatchCodec.Result.FAILURE);
      } else if (!p.op().isWrite()) {
        results.add(read(p.op().key()));
      } else if (kept == null) {
        results.add(BatchCodec.Result.FAILURE);
      } else {
        data.stored();
        results.add(new BatchCodec.Result(kept[write++], false));
      }
    }
    return results;
  }

  private static boolean expired(Pending p, long now) {
    return p.deadlineNanos() - now <= 0;
  }

  private BatchCodec.Result read(byte[] key) {
    try {
      Record record = storage.get(key);
      return record == null ? BatchCodec.Result.ABSENT : new BatchCodec.Result(record, false);
    } catch (StorageException e) {
      return BatchCodec.Result.FAILURE;
    }
  }
}
