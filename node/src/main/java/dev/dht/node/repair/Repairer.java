package dev.dht.node.repair;

import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.HybridClock;
import dev.dht.node.cluster.Topology;
import dev.dht.node.net.BoundedBody;
import dev.dht.node.replication.BatchCodec;
import dev.dht.node.replication.PeerTransport;
import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.parsetools.RecordParser;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Anti-entropy repair, pulling: a run makes this node hold the newest version of every key it
 * shares with each peer. Per peer, both sides digest the keys they share ({@link SharedKeys}) per
 * bucket; the peer then streams the records of the buckets that differ, in key order, and this node
 * keeps each one that is newer than its own (newest wins; a tombstone past its grace deletes). As
 * every node runs repair, each pair converges both ways. A run that reached every peer moves the
 * {@link TombstoneHorizon} and then purges the tombstones stamped before it; a failed run purges
 * nothing.
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
  private static final byte[] REPAIRED_SINCE = bytes("repair-complete-since-ms");
  private static final byte[] PURGE_HORIZON = bytes("tombstone-purge-horizon");

  /**
   * How long a peer may stay silent: a digests answer comes only after a scan of the peer's whole
   * store (about a second per million keys here, more behind the scans of other peers on its one
   * background worker), a file only once it is written; entries come in paced frames. A peer that
   * gives up closes the connection, and the peer's scan stops.
   */
  private static final long SCAN_IDLE_MS = 600_000;

  private static final long FRAMES_IDLE_MS = 60_000;

  /** A peer's reason for an error answer is read only up to this size. */
  private static final int MAX_REASON_BYTES = 4096;

  /** The first run after a start waits this long (or the interval), for peers to come up. */
  private static final long FIRST_RUN_DELAY_MS = 5_000;

  /**
   * {@code graceMs}: tombstones live at least this long; {@code horizonMarginMs}: how long a write
   * may take from its stamp to its replicas (clock offset and request timeout).
   */
  public record Settings(
      long intervalMs,
      long bytesPerSecond,
      int maxKeyBytes,
      int maxValueBytes,
      long graceMs,
      long horizonMarginMs,
      boolean streamFiles) {}

  private final Vertx vertx;
  private final ClusterState cluster;
  private final Storage storage;
  private final WorkerExecutor worker;
  private final PeerTransport transport;
  private final HybridClock clock;
  private final Settings settings;
  private final boolean stream;
  private final TombstoneHorizon horizon;
  private final BooleanSupplier mayRun;
  private final List<Long> peersRepairedSince = new ArrayList<>(); // of the current run
  private byte[] progressKey; // of the current run
  private volatile RunProgress progress; // of the current run: set on the loop and the worker
  private boolean resumed; // whether the current run resumes an interrupted one
  private final RepairStatus status = new RepairStatus();
  private Context context;
  private HttpClient http;
  private long timer = -1;
  private long pacedUntilNanos; // of the current stream: when its files have used their rate
  private int failuresInARow;
  private boolean stopped;
  private final List<Consumer<Boolean>> finishedListeners = new ArrayList<>();

  public Repairer(
      Vertx vertx,
      ClusterState cluster,
      Storage storage,
      WorkerExecutor worker,
      PeerTransport transport,
      HybridClock clock,
      Settings settings,
      TombstoneHorizon horizon,
      BooleanSupplier mayRun,
      boolean stream) {
    this.clock = clock;
    this.stream = stream;
    this.horizon = horizon;
    this.mayRun = mayRun;
    this.vertx = vertx;
    this.cluster = cluster;
    this.storage = storage;
    this.worker = worker;
    this.transport = transport;
    this.settings = settings;
  }

  public RepairStatus status() {
    return status;
  }

  /** Whether streams move files: this node asks for them, and sends them. */
  public boolean streamsFiles() {
    return settings.streamFiles();
  }

  /** Starts the schedule; call on the event loop that will run repair. */
  public void start(Context context, HttpClient http) {
    this.context = context;
    this.http = http;
    if (stream) {
      return; // on demand only
    }
    worker
        .executeBlocking(
            () -> {
              status.repairedSinceMillis = repairedSince(storage);
              horizon.set(longMeta(storage, PURGE_HORIZON));
              return longMeta(storage, LAST_COMPLETED);
            },
            false)
        .onSuccess(last -> {
          status.lastCompletedMillis = last;
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

  /**
   * When the last run on {@code storage}'s data that reached every peer began ({@link
   * TombstoneHorizon#NEVER}: none). Blocking: for start-up.
   */
  public static long repairedSince(Storage storage) {
    return longMeta(storage, REPAIRED_SINCE); // absent: 0, which is NEVER
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
    if (!mayRun.getAsBoolean()) { // its data may yet be dropped: what it pulled would go too
      if (settings.intervalMs() > 0 && !stream) {
        schedule(RetryDelay.afterFailures(1, settings.intervalMs()));
      }
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
    int from = topology.readReplication().from();
    List<String> peers = new ArrayList<>();
    for (int m = 0; m < topology.members().size(); m++) {
      if (topology.isLivePeer(m)) {
        peers.add(topology.member(m)); // the owners of keys now: what is pulled comes from them
      }
    }
    peers.sort(null);
    // with one copy of each key, repair has nothing to compare, but a stream has keys to move
    boolean nothingShared =
        stream ? SharedKeys.nothingToPull(topology) : from < 2; // and nothing new to a stream
    status.peers = nothingShared ? 0 : peers.size();
    status.peersDone = 0;
    peersRepairedSince.clear();
    worker
        .executeBlocking(() -> RunProgress.decode(storage.getMeta(progressKey)), false)
        .compose(saved -> {
          resumed = saved != null && saved.resumed();
          progress = resumed ? saved : RunProgress.begin(status.startedMillis);
          if (resumed) {
            log.info("resuming an interrupted run: {} peers done", saved.done().size());
          }
          return repairAll(nothingShared ? List.of() : peers, from);
        })
        .onComplete(this::finished);
    return true;
  }

  /**
   * Repairs with each peer in turn, or streams from all of them at once (their files are written
   * and sent while this node ingests another's); skips those the resumed run is done with; fails if
   * any failed.
   */
  private Future<Void> repairAll(List<String> peers, int from) {
    List<String> failures = new ArrayList<>(); // on the repair's event loop, like the callbacks
    List<Future<Void>> pulls = new ArrayList<>();
    Future<Void> inTurn = Future.succeededFuture();
    for (String peer : peers) {
      byte[] start = progress.startFor(peer);
      if (start == null) {
        status.peersDone++;
        continue;
      }
      Supplier<Future<Void>> pull =
          () -> {
            status.peer = peer;
            return (stream ? streamFrom(peer, from, start) : repairWith(peer, from, start))
                .transform(done -> {
                  status.peersDone++;
                  if (done.failed()) {
                    failures.add(peer + ": " + done.cause().getMessage());
                  }
                  return Future.succeededFuture();
                });
          };
      if (stream) {
        pulls.add(pull.get());
      } else {
        inTurn = inTurn.compose(v -> pull.get());
      }
    }
    pulls.add(inTurn);
    return Future.join(pulls)
        .transform(v ->
            failures.isEmpty()
                ? Future.succeededFuture()
                : Future.failedFuture(String.join("; ", failures)));
  }

  private Future<Void> repairWith(String peer, int from, byte[] start) {
    SharedKeys keys = SharedKeys.pulledFrom(cluster.topology(), peer, from, stream);
    Future<Digests> local = worker.executeBlocking(() -> RepairScans.digests(storage, keys), false);
    Future<Digests> remote =
        call(peer, RepairApi.DIGESTS_PATH, from, null, Buffer.buffer())
            .compose(response -> {
              peersRepairedSince.add(repairedSince(response));
              return BoundedBody.read(response, Digests.ENCODED_BYTES);
            })
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
        .compose(v -> peerDone(peer));
  }

  /**
   * Pulls a stream's keys from {@code peer} as files, one after another from {@code start}, and
   * ingests each; by digests and entries from a peer that does not know files (an older version).
   */
  private Future<Void> streamFrom(String peer, int from, byte[] start) {
    SharedKeys keys = SharedKeys.pulledFrom(cluster.topology(), peer, from, true);
    if (keys.nothingHandedOver()) {
      return peerDone(peer);
    }
    if (!settings.streamFiles()) {
      return repairWith(peer, from, start);
    }
    Promise<Void> done = Promise.promise();
    nextFile(keys, peer, start, done);
    return done.future();
  }

  /** Asks {@code peer} for the file from {@code start}; goes on until it has none left. */
  private void nextFile(SharedKeys keys, String peer, byte[] start, Promise<Void> done) {
    Future.<Void>succeededFuture()
        .compose(v -> send(peer, RepairApi.FILES_PATH, keys.from(), start, Buffer.buffer()))
        .compose(response ->
            switch (response.statusCode()) {
              case 200 -> receiveFile(keys, peer, response, start);
              case 204 -> peerDone(peer).map(v -> (byte[]) null);
              case 400 -> { // a peer that does not know files
                response.request().reset();
                yield repairWith(peer, keys.from(), start).map(v -> (byte[]) null);
              }
              default -> Repairer.<byte[]>failure(peer, response);
            })
        .onComplete(file -> {
          if (file.failed()) {
            done.tryFail(file.cause());
          } else if (file.result() == null) {
            done.tryComplete();
          } else { // from a callback of the last file's I/O: the stack does not grow with files
            nextFile(keys, peer, RepairApi.after(file.result()), done);
          }
        });
  }

  /**
   * Downloads a stream's file into the transfer directory, ingests it, saves the progress and paces
   * (one pace for all of a stream's peers); completes with the file's last key.
   */
  private Future<byte[]> receiveFile(
      SharedKeys keys, String peer, HttpClientResponse response, byte[] start) {
    response.pause(); // until the file is open to take it
    byte[] last;
    long length;
    try {
      last = RepairApi.unhex(response.getHeader(RepairApi.LAST_KEY_HEADER));
      length = Long.parseLong(response.getHeader(HttpHeaders.CONTENT_LENGTH));
      if (length <= 0 || length > RepairApi.MAX_FILE_BYTES) {
        throw new IllegalArgumentException("a file of " + length + " bytes");
      }
      if (java.util.Arrays.compareUnsigned(last, start) < 0) {
        throw new IllegalArgumentException("a last key before the start");
      }
    } catch (RuntimeException e) { // absent headers too
      response.request().reset();
      return Future.failedFuture(
          peer + " sent a stream file without a valid length or last key: " + e.getMessage());
    }
    Path file = storage.transferDir().resolve("in-" + UUID.randomUUID() + ".sst");
    return vertx
        .fileSystem()
        .open(file.toString(), new OpenOptions().setWrite(true).setCreateNew(true))
        .onFailure(e -> response.request().reset())
        .compose(response::pipeTo)
        .compose(v -> worker.executeBlocking(() -> ingest(keys, peer, file, length), false))
        .eventually(() -> vertx.fileSystem().delete(file.toString()).otherwiseEmpty())
        .compose(ingested -> {
          if (!java.util.Arrays.equals(ingested.lastKey(), last)) {
            return Future.failedFuture(peer + " sent a file whose last key is not the one named");
          }
          return saveProgress(progress.received(peer, last));
        })
        .compose(v -> paced(length))
        .map(v -> last);
  }

  /**
   * Completes once {@code bytes} more fit in the stream's rate: the files of all its peers share
   * one pace. On the repair's event loop.
   */
  private Future<Void> paced(long bytes) {
    long now = System.nanoTime();
    pacedUntilNanos =
        Math.max(pacedUntilNanos, now) + bytes * 1_000_000_000L / settings.bytesPerSecond();
    Promise<Void> paced = Promise.promise();
    vertx.setTimer(Math.max(1, (pacedUntilNanos - now) / 1_000_000), t -> paced.complete());
    return paced.future();
  }

  /**
   * Keeps the records of a stream's file that are newer than this node's, except those stamped too
   * far ahead; fails while the clock is fenced. Those of keys this node is read for now are
   * written, not ingested.
   */
  private Storage.Ingested ingest(SharedKeys keys, String peer, Path file, long length) {
    String fenced = clock.fencedReason();
    if (fenced != null) {
      throw new IllegalStateException(fenced);
    }
    long[] ahead = {0};
    Storage.Ingested ingested =
        storage.ingestIfNewer(
            file,
            new Storage.Admission() {
              @Override
              public boolean admits(byte[] key, Record record) {
                if (key.length > settings.maxKeyBytes()
                    || record.valueLength() > settings.maxValueBytes()) {
                  throw new IllegalArgumentException(
                      "a record over the size limits from " + peer + " in a stream file");
                }
                if (clock.plausible(record.timestamp())) {
                  return true;
                }
                ahead[0]++;
                return false;
              }

              @Override
              public boolean readHere(byte[] key) {
                return keys.ownedNowByPuller(key);
              }
            });
    warnAhead(ahead[0], peer);
    status.keysReceived += ingested.kept();
    status.bytesReceived += length;
    return ingested;
  }

  private static void warnAhead(long ahead, String peer) {
    if (ahead > 0) {
      log.warn(
          "{} records from {} are stamped more than the maximum clock offset ahead of this"
              + " node's clock: not kept (check that node's clock)",
          ahead,
          peer);
    }
  }

  private Future<HttpClientResponse> call(
      String peer, String path, int from, byte[] start, Buffer body) {
    return send(peer, path, from, start, body)
        .compose(response ->
            response.statusCode() == 200
                ? Future.succeededFuture(response)
                : failure(peer, response));
  }

  private static <T> Future<T> failure(String peer, HttpClientResponse response) {
    return BoundedBody.read(response, MAX_REASON_BYTES)
        .transform(text ->
            Future.failedFuture(
                peer
                    + " answered "
                    + response.statusCode()
                    + (text.succeeded() ? ": " + text.result() : "")));
  }

  private Future<HttpClientResponse> send(
      String peer, String path, int from, byte[] start, Buffer body) {
    String query =
        "?peer="
            + java.net.URLEncoder.encode(cluster.topology().self(), StandardCharsets.UTF_8)
            + "&from="
            + from
            + (stream ? "&stream=" + status.epoch : "")
            + (start == null || start.length == 0 ? "" : "&start=" + RepairApi.hex(start));
    RequestOptions request =
        transport
            .request(peer, HttpMethod.POST, path + query)
            .setIdleTimeout(RepairApi.ENTRIES_PATH.equals(path) ? FRAMES_IDLE_MS : SCAN_IDLE_MS);
    return http.request(request).compose(req -> req.send(body));
  }

  /** Reads the frames of an entries stream, keeping what is newer, paced; resumable by key. */
  private Future<Void> receive(String peer, HttpClientResponse response) {
    Promise<Void> done = Promise.promise();
    RecordParser frames = RecordParser.newFixed(4, response);
    boolean[] atLength = {true};
    frames.handler(chunk -> {
      if (atLength[0]) {
        int length;
        try {
          length = RepairFrames.checkLength(chunk.getInt(0));
        } catch (BatchCodec.MalformedException e) {
          response.request().reset();
          done.tryFail(e.getMessage() + " from " + peer);
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
          // decoded in full before anything is kept: a malformed frame fails the run, unapplied
          List<ReplicaOp> ops =
              RepairFrames.decode(
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
          warnAhead(ahead, peer);
          Record[] kept = keys.isEmpty() ? new Record[0] : storage.putAllIfNewer(keys, records);
          long stored = 0;
          for (Record k : kept) {
            stored += k == null ? 1 : 0;
          }
          status.keysReceived += stored;
          status.bytesReceived += frame.length();
          progress = progress.received(peer, ops.getLast().key());
          storage.putMeta(progressKey, progress.encode());
          return null;
        },
        false);
  }

  /** A peer is done: a run resumed after a restart skips it. */
  private Future<Void> peerDone(String peer) {
    return saveProgress(progress.completed(peer));
  }

  /** Takes {@code next} as the run's progress, and persists it. On the repair's event loop. */
  private Future<Void> saveProgress(RunProgress next) {
    progress = next;
    byte[] saved = next.encode();
    return worker.executeBlocking(
        () -> {
          storage.putMeta(progressKey, saved);
          return null;
        },
        false);
  }

  /** What a digests answer says of its node's last complete run; nothing: never (older nodes). */
  private static long repairedSince(HttpClientResponse response) {
    try {
      String since = response.getHeader(RepairApi.REPAIRED_SINCE_HEADER);
      return since == null ? TombstoneHorizon.NEVER : Long.parseLong(since);
    } catch (NumberFormatException e) {
      return TombstoneHorizon.NEVER;
    }
  }

  private static long longMeta(Storage storage, byte[] key) {
    byte[] value = storage.getMeta(key);
    return value == null ? 0 : ByteBuffer.wrap(value).getLong();
  }

  private static byte[] longBytes(long value) {
    return ByteBuffer.allocate(Long.BYTES).putLong(value).array();
  }

  private void finished(io.vertx.core.AsyncResult<Void> run) {
    long end = now();
    status.running = false;
    status.runs++;
    status.lastDurationMs = end - status.startedMillis;
    status.peer = null;
    byte[] finishedRun = progressKey;
    if (run.succeeded()) {
      worker.executeBlocking(
          () -> {
            storage.deleteMeta(finishedRun); // the next run pulls from every peer
            return null;
          },
          false);
    }
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
      status.repairedSinceMillis = progress.startedMillis();
      purgeAfter(end);
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

  /**
   * After a run that reached every peer: persists when it began, moves the horizon (persisted
   * first) and purges what lies before it. A resumed run did not hear from the peers it skipped, so
   * it leaves the horizon as it is.
   */
  private void purgeAfter(long end) {
    List<Long> since = new ArrayList<>(peersRepairedSince);
    since.add(status.repairedSinceMillis);
    long next =
        resumed
            ? horizon.timestamp()
            : TombstoneHorizon.next(
                horizon.timestamp(), end, settings.graceMs(), settings.horizonMarginMs(), since);
    worker
        .executeBlocking(
            () -> {
              storage.putMeta(LAST_COMPLETED, longBytes(end));
              storage.putMeta(REPAIRED_SINCE, longBytes(status.repairedSinceMillis));
              storage.putMeta(PURGE_HORIZON, longBytes(next));
              horizon.set(next);
              return RepairScans.purgeTombstones(storage);
            },
            false)
        .onSuccess(purged -> {
          status.tombstonesPurged += purged;
          log.info(
              "repair done in {} ms: {} differing buckets, {} keys received; {} tombstones"
                  + " stamped before {} purged",
              status.lastDurationMs,
              status.bucketsDiffering,
              status.keysReceived,
              purged,
              java.time.Instant.ofEpochMilli(horizon.millis()));
        })
        .onFailure(e -> log.warn("cannot purge tombstones: {}", e.toString()));
  }

  private static long now() {
    return System.currentTimeMillis();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
