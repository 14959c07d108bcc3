package dev.dht.node.repair;

import dev.dht.node.cluster.ClusterSecrets;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.cluster.Replication;
import dev.dht.node.cluster.Topology;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.InternalApi;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.parsetools.RecordParser;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Anti-entropy repair, pulling: a run makes this node hold the newest version of every key it
 * shares with each peer. Per peer, both sides digest the keys they share ({@link SharedKeys}) per
 * bucket; the peer then streams the records of the buckets that differ, in key order, and this node
 * keeps each one that is newer than its own (newest wins; a tombstone past its grace deletes). As
 * every node runs repair, each pair converges both ways. A run starts by purging tombstones past
 * their grace period.
 *
 * <p>Repair checks what it receives as a replica checks a peer's write: no frame is applied while
 * this node's clock is fenced (the run fails, and is retried), and a record stamped more than the
 * maximum clock offset ahead of this node's clock is not kept (it would shadow every later write of
 * its key, and spread further with the next repair).
 *
 * <p>Runs come on a schedule ({@code intervalMs}; 0: only on demand) and on demand. The stream is
 * paced to {@code bytesPerSecond}. Progress (the peer and the last key received) is persisted after
 * every frame, so a run interrupted by a restart resumes where it stopped. Runs on one event loop;
 * scans and writes on the background worker.
 */
public final class Repairer {
  private static final Logger log = LoggerFactory.getLogger(Repairer.class);
  private static final byte[] LAST_COMPLETED = bytes("repair-last-completed-ms");

  /** The first run after a start waits this long (or the interval), for peers to come up. */
  private static final long FIRST_RUN_DELAY_MS = 5_000;

  public record Settings(
      long intervalMs, long bytesPerSecond, int maxKeyBytes, int maxValueBytes) {}

  private final Vertx vertx;
  private final ClusterState cluster;
  private final Storage storage;
  private final WorkerExecutor worker;
  private final ClusterSecrets secret;
  private final HybridClock clock;
  private final Settings settings;
  private final boolean stream;
  private byte[] progressKey; // of the current run
  private final RepairStatus status = new RepairStatus();
  private Context context;
  private HttpClient http;
  private long timer = -1;
  private int failuresInARow;
  private boolean stopped;
  private final List<Consumer<Boolean>> finishedListeners = new ArrayList<>();

  public Repairer(
      Vertx vertx,
      ClusterState cluster,
      Storage storage,
      WorkerExecutor worker,
      ClusterSecrets secret,
      HybridClock clock,
      Settings settings,
      boolean stream) {
    this.clock = clock;
    this.stream = stream;
    this.vertx = vertx;
    this.cluster = cluster;
    this.storage = storage;
    this.worker = worker;
    this.secret = secret;
    this.settings = settings;
  }

  public RepairStatus status() {
    return status;
  }

  /** Starts the schedule; call on the event loop that will run repair. */
  public void start(Context context, HttpClient http) {
    this.context = context;
    this.http = http;
    if (stream) {
      return; // on demand only
    }
    worker
        .executeBlocking(() -> storage.getMeta(LAST_COMPLETED), false)
        .onSuccess(last -> {
          status.lastCompletedMillis = last == null ? 0 : ByteBuffer.wrap(last).getLong();
          if (settings.intervalMs() > 0) {
            long due = status.lastCompletedMillis + settings.intervalMs() - now();
            schedule(Math.max(due, Math.min(FIRST_RUN_DELAY_MS, settings.intervalMs())));
          }
        });
  }

  public void stop() {
    stopped = true;
    vertx.cancelTimer(timer);
  }

  /** Told whether each run reached every peer; call on the repair's event loop. */
  public void onFinished(Consumer<Boolean> listener) {
    finishedListeners.add(listener);
  }

  /** Starts a run now unless one is running; completes with whether it started. Any thread. */
  public Future<Boolean> runNow() {
    Promise<Boolean> started = Promise.promise();
    context.runOnContext(v -> started.complete(begin()));
    return started.future();
  }

  private void schedule(long delayMs) {
    vertx.cancelTimer(timer);
    status.nextRunMillis = now() + delayMs;
    timer = vertx.setTimer(Math.max(1, delayMs), t -> begin());
  }

  private boolean begin() {
    if (status.running || stopped) {
      return false;
    }
    status.running = true;
    status.startedMillis = now();
    status.lastError = null;
    status.bucketsDiffering = 0;
    Topology topology = cluster.topology();
    status.epoch = topology.epoch();
    // a stream resumes only within its epoch: another epoch's keys to pull are other keys
    progressKey = bytes(stream ? "stream-progress@" + topology.epoch() : "repair-progress");
    int from = Replication.resolve(null, null, cluster.defaults(), topology.size()).from();
    List<String> peers = new ArrayList<>();
    for (int m = 0; m < topology.members().size(); m++) {
      if (!topology.isSelf(m) && topology.state(m) != Topology.State.JOINING) {
        peers.add(topology.member(m)); // the owners of keys now: what is pulled comes from them
      }
    }
    peers.sort(null);
    status.peers = from < 2 ? 0 : peers.size();
    status.peersDone = 0;
    worker
        .executeBlocking(
            () -> {
              if (!stream) {
                status.tombstonesPurged += RepairScans.purgeTombstones(storage);
              }
              return storage.getMeta(progressKey);
            },
            false)
        .compose(progress -> repairAll(from < 2 ? List.of() : peers, from, progress))
        .onComplete(this::finished);
    return true;
  }

  /** Repairs with each peer in turn (resuming a persisted run); fails if any peer failed. */
  private Future<Void> repairAll(List<String> peers, int from, byte[] progress) {
    String resumePeer = null;
    byte[] resumeKey = null;
    if (progress != null) {
      ByteBuffer p = ByteBuffer.wrap(progress);
      byte[] peer = new byte[p.getShort() & 0xffff];
      p.get(peer);
      resumeKey = new byte[p.remaining()];
      p.get(resumeKey);
      resumePeer = new String(peer, StandardCharsets.UTF_8);
      if (peers.contains(resumePeer)) {
        log.info("resuming the repair with {} after a restart", resumePeer);
      } else {
        resumePeer = null;
      }
    }
    Future<List<String>> failed = Future.succeededFuture(new ArrayList<>());
    for (String peer : peers) {
      if (resumePeer != null && peer.compareTo(resumePeer) < 0) {
        status.peersDone++;
        continue;
      }
      byte[] start = peer.equals(resumePeer) ? RepairApi.after(resumeKey) : new byte[0];
      failed =
          failed.compose(failures -> {
            status.peer = peer;
            return repairWith(peer, from, start)
                .transform(done -> {
                  status.peersDone++;
                  if (done.failed()) {
                    failures.add(peer + ": " + done.cause().getMessage());
                  }
                  return Future.succeededFuture(failures);
                });
          });
    }
    return failed.compose(failures ->
        failures.isEmpty()
            ? Future.succeededFuture()
            : Future.failedFuture(String.join("; ", failures)));
  }

  private Future<Void> repairWith(String peer, int from, byte[] start) {
    SharedKeys keys = SharedKeys.pulledFrom(cluster.topology(), peer, from, stream);
    Future<Digests> local = worker.executeBlocking(() -> RepairScans.digests(storage, keys), false);
    Future<Digests> remote =
        call(peer, RepairApi.DIGESTS_PATH, from, null, Buffer.buffer())
            .compose(HttpClientResponse::body)
            .map(Digests::decode);
    return Future.all(local, remote)
        .compose(both -> {
          BitSet differing = local.result().differing(remote.result());
          status.bucketsDiffering += differing.cardinality();
          if (differing.isEmpty()) {
            return Future.succeededFuture();
          }
          return call(
                  peer,
                  RepairApi.ENTRIES_PATH,
                  from,
                  start,
                  Buffer.buffer(RepairApi.bitmap(differing)))
              .compose(response -> receive(peer, response));
        })
        .compose(v -> clearProgress());
  }

  private Future<HttpClientResponse> call(
      String peer, String path, int from, byte[] start, Buffer body) {
    URI uri = URI.create(peer);
    String query =
        "?peer="
            + java.net.URLEncoder.encode(cluster.topology().self(), StandardCharsets.UTF_8)
            + "&from="
            + from
            + (stream ? "&stream=" + status.epoch : "")
            + (start == null || start.length == 0 ? "" : "&start=" + RepairApi.hex(start));
    RequestOptions request =
        new RequestOptions()
            .setMethod(HttpMethod.POST)
            .setHost(uri.getHost())
            .setPort(uri.getPort())
            .setURI(path + query)
            .setIdleTimeout(60_000);
    if (secret.current() != null) {
      request.putHeader(InternalApi.SECRET_HEADER, secret.current());
    }
    return http.request(request)
        .compose(req -> req.send(body))
        .compose(response ->
            response.statusCode() == 200
                ? Future.succeededFuture(response)
                : response
                    .body()
                    .transform(text ->
                        Future.failedFuture(
                            peer
                                + " answered "
                                + response.statusCode()
                                + (text.succeeded() ? ": " + text.result() : ""))));
  }

  /** Reads the frames of an entries stream, keeping what is newer, paced; resumable by key. */
  private Future<Void> receive(String peer, HttpClientResponse response) {
    Promise<Void> done = Promise.promise();
    RecordParser frames = RecordParser.newFixed(4, response);
    boolean[] atLength = {true};
    frames.handler(chunk -> {
      if (atLength[0]) {
        int length = chunk.getInt(0);
        if (length <= 0 || length > RepairApi.MAX_FRAME_BYTES) {
          response.request().reset();
          done.tryFail("a repair frame of " + length + " bytes from " + peer);
          return;
        }
        atLength[0] = false;
        frames.fixedSizeMode(length);
        return;
      }
      atLength[0] = true;
      frames.fixedSizeMode(4);
      frames.pause();
      long begun = System.nanoTime();
      apply(peer, chunk)
          .onComplete(applied -> {
            if (applied.failed()) {
              response.request().reset();
              done.tryFail(applied.cause());
              return;
            }
            long paceMs =
                chunk.length() * 1000L / settings.bytesPerSecond()
                    - (System.nanoTime() - begun) / 1_000_000;
            vertx.setTimer(Math.max(1, paceMs), t -> frames.resume());
          });
    });
    frames.exceptionHandler(done::tryFail);
    frames.endHandler(v -> done.tryComplete());
    return done.future();
  }

  /**
   * Keeps the newer records of a frame, except those stamped too far ahead, and saves the progress;
   * fails while the clock is fenced.
   */
  private Future<Void> apply(String peer, Buffer frame) {
    return worker.executeBlocking(
        () -> {
          String fenced = clock.fencedReason();
          if (fenced != null) {
            throw new IllegalStateException(fenced);
          }
          List<ReplicaOp> ops =
              BatchCodec.decodeOps(
                  frame, settings.maxKeyBytes(), settings.maxValueBytes() + Record.HEADER_BYTES);
          List<byte[]> keys = new ArrayList<>(ops.size());
          List<Record> records = new ArrayList<>(ops.size());
          int ahead = 0;
          for (ReplicaOp op : ops) {
            if (clock.plausible(op.record().timestamp())) {
              keys.add(op.key());
              records.add(op.record());
            } else {
              ahead++;
            }
          }
          if (ahead > 0) {
            log.warn(
                "{} records from {} are stamped more than the maximum clock offset ahead of this"
                    + " node's clock: not kept (check that node's clock)",
                ahead,
                peer);
          }
          Record[] kept = keys.isEmpty() ? new Record[0] : storage.putAllIfNewer(keys, records);
          long stored = 0;
          for (Record k : kept) {
            stored += k == null ? 1 : 0;
          }
          status.keysReceived += stored;
          status.bytesReceived += frame.length();
          storage.putMeta(progressKey, progress(peer, ops.getLast().key()));
          return null;
        },
        false);
  }

  /** A peer is done: the next run starts from its first key again. */
  private Future<Void> clearProgress() {
    return worker.executeBlocking(
        () -> {
          storage.deleteMeta(progressKey);
          return null;
        },
        false);
  }

  private static byte[] progress(String peer, byte[] lastKey) {
    byte[] utf8 = bytes(peer);
    return ByteBuffer.allocate(2 + utf8.length + lastKey.length)
        .putShort((short) utf8.length)
        .put(utf8)
        .put(lastKey)
        .array();
  }

  private void finished(io.vertx.core.AsyncResult<Void> run) {
    long end = now();
    status.running = false;
    status.runs++;
    status.lastDurationMs = end - status.startedMillis;
    status.peer = null;
    if (run.succeeded() && stream) {
      status.lastCompletedMillis = end;
      status.streamedEpoch = status.epoch;
      log.info(
          "streamed for epoch {} in {} ms: {} keys received",
          status.epoch,
          status.lastDurationMs,
          status.keysReceived);
    } else if (run.succeeded()) {
      failuresInARow = 0;
      status.lastCompletedMillis = end;
      worker.executeBlocking(
          () -> {
            storage.putMeta(LAST_COMPLETED, ByteBuffer.allocate(8).putLong(end).array());
            return null;
          },
          false);
      log.info(
          "repair done in {} ms: {} differing buckets, {} keys received, {} tombstones purged",
          status.lastDurationMs,
          status.bucketsDiffering,
          status.keysReceived,
          status.tombstonesPurged);
    } else {
      failuresInARow++;
      status.failedRuns++;
      status.lastError = run.cause().getMessage();
      log.warn(
          "{} did not reach every peer: {}", stream ? "streaming" : "repair", status.lastError);
    }
    finishedListeners.forEach(listener -> listener.accept(run.succeeded()));
    if (settings.intervalMs() > 0 && !stopped && !stream) {
      schedule(
          run.succeeded()
              ? settings.intervalMs()
              : RetryDelay.afterFailures(failuresInARow, settings.intervalMs()));
    }
  }

  private static long now() {
    return System.currentTimeMillis();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
