package dev.dht.node.http;

import dev.dht.contract.NodeFlags;
import dev.dht.node.bootstrap.DataState;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.repair.Digests;
import dev.dht.node.repair.RepairApi;
import dev.dht.node.repair.RepairScans;
import dev.dht.node.repair.SharedKeys;
import dev.dht.node.storage.Storage;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The answering side of {@link RepairApi}: digests and entries of the keys this replica shares with
 * the asking peer. Scans run on the background worker; entries are streamed ({@link ChunkedStream})
 * only as fast as the peer reads them (it paces itself), so memory stays bounded.
 */
final class RepairHandler {
  private final ClusterState cluster;
  private final Storage storage;
  private final WorkerExecutor worker;
  private final LongSupplier repairedSince;
  private final DataState data;
  private final boolean files;

  RepairHandler(
      ClusterState cluster,
      Storage storage,
      WorkerExecutor worker,
      LongSupplier repairedSince,
      DataState data,
      boolean files) {
    this.files = files;
    this.cluster = cluster;
    this.storage = storage;
    this.worker = worker;
    this.repairedSince = repairedSince;
    this.data = data;
  }

  /**
   * Answers a repair request; {@code release} is run once, when it is over. Not while this node
   * checks whether its data is stale (a peer must not pull values whose deletes it may miss), nor
   * while it restores a backup; no stream until it serves reads (a puller may take a key from this
   * node only, so what it holds must be complete).
   */
  void handle(HttpServerRequest request, RequestBody body, Admission admission, Runnable release) {
    if (!data.mayRepair()) {
      release.run();
      Responses.text(
          request,
          503,
          data.phase() == DataState.Phase.RESTORING
              ? "restoring a backup: no repair until every member has"
              : "checking whether its data is stale: no repair yet");
      return;
    }
    SharedKeys keys;
    try {
      Query query = new Query(request.query());
      String epoch = query.text("stream");
      var topology = cluster.topology();
      if (epoch != null && Long.parseLong(epoch) != topology.epoch()) {
        release.run();
        Responses.text(
            request,
            409,
            "streaming for epoch " + epoch + ", but this node is at epoch " + topology.epoch());
        return;
      }
      keys =
          SharedKeys.pulledBy(
              topology, query.text("peer"), Integer.parseInt(query.text("from")), epoch != null);
    } catch (RuntimeException e) {
      release.run();
      Responses.text(request, 400, "bad repair request: " + e.getMessage());
      return;
    }
    if (keys.stream() && !data.servesReads()) { // its keys may not all be here yet
      release.run();
      Responses.text(
          request, 503, "rebuilding its data: no stream from this node until it serves reads");
      return;
    }
    if (RepairApi.FILES_PATH.equals(request.path())) {
      if (!keys.stream() || !files) {
        release.run();
        Responses.text(
            request,
            400,
            files
                ? "bad repair request: files are for streams only"
                : "stream files are turned off on this node (" + NodeFlags.STREAM_FILES + ")");
        return;
      }
      file(request, keys, release);
      return;
    }
    if (RepairApi.DIGESTS_PATH.equals(request.path())) {
      AtomicBoolean gone = new AtomicBoolean();
      request.response().closeHandler(v -> gone.set(true)); // the peer timed out or went away
      worker
          .executeBlocking(() -> RepairScans.digests(storage, keys, gone::get).encode(), false)
          .onComplete(done -> {
            release.run();
            if (done.succeeded()) {
              request
                  .response()
                  .putHeader(
                      RepairApi.REPAIRED_SINCE_HEADER, Long.toString(repairedSince.getAsLong()));
              Responses.bytes(request, done.result());
            } else {
              Failures.answer(request, done.cause());
            }
          });
      return;
    }
    body.read(Digests.BUCKETS / 8, admission)
        .compose(bitmap -> {
          admission.releaseBytes(bitmap.length());
          BitSet buckets = RepairApi.buckets(bitmap.getBytes());
          byte[] from = startKey(request);
          return worker.executeBlocking(
              () -> new RepairScans.EntryScan(storage, keys, buckets, from), false);
        })
        .onSuccess(scan -> ChunkedStream.start(request.response(), worker, frames(scan), release))
        .onFailure(e -> {
          release.run();
          if (e instanceof IllegalArgumentException) {
            Responses.text(request, 400, "bad repair request: " + e.getMessage());
          } else {
            Failures.answer(request, e);
          }
        });
  }

  /**
   * Writes the next file of a stream on the worker and sends it whole (from the page cache, without
   * copies where the connection allows); it is deleted once sent or given up.
   */
  private void file(HttpServerRequest request, SharedKeys keys, Runnable release) {
    byte[] start;
    try {
      start = startKey(request);
    } catch (IllegalArgumentException e) {
      release.run();
      Responses.text(request, 400, "bad repair request: " + e.getMessage());
      return;
    }
    AtomicBoolean gone = new AtomicBoolean();
    request.response().closeHandler(v -> gone.set(true));
    Path file = storage.transferDir().resolve("out-" + UUID.randomUUID() + ".sst");
    worker
        .executeBlocking(
            () ->
                RepairScans.writeFile(storage, keys, start, RepairApi.FILE_BYTES, file, gone::get),
            false)
        .onComplete(written -> {
          if (written.failed()) {
            release.run();
            Failures.answer(request, written.cause());
          } else if (written.result() == null) {
            release.run();
            Responses.empty(request, 204);
          } else {
            request
                .response()
                .putHeader(RepairApi.LAST_KEY_HEADER, RepairApi.hex(written.result()))
                .sendFile(file.toString())
                .onComplete(sent -> {
                  release.run();
                  worker.executeBlocking(() -> Files.deleteIfExists(file), false);
                });
          }
        });
  }

  /** The request's {@code start} key (hex; absent: the first key); not hex: IllegalArgument. */
  private static byte[] startKey(HttpServerRequest request) {
    String hex = new Query(request.query()).text("start");
    return hex == null ? new byte[0] : RepairApi.unhex(hex);
  }

  /** The scan as chunks: one frame each. */
  private static ChunkedStream.Source frames(RepairScans.EntryScan scan) {
    return new ChunkedStream.Source() {
      @Override
      public List<Buffer> next() {
        Buffer frame = scan.nextFrame(RepairApi.FRAME_BYTES);
        return frame == null ? List.of() : List.of(frame);
      }

      @Override
      public void close() {
        scan.close();
      }
    };
  }
}
