package dev.dht.node.bootstrap;

import dev.dht.contract.AdminStatus;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.net.BoundedBody;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a node whose data may be incomplete or stale to serving reads, asking its peers (their
 * admin status) what it needs to know. With a peer down, it keeps asking, or keeps retrying the
 * pull, until it can: until then its reads fail (a 504 for a quorum that needs it, never an answer
 * that misses a write). Runs on the background event loop.
 *
 * <ul>
 *   <li>Started on data that may be stale ({@link DataState.Phase#CHECKING}): if a peer purged
 *       tombstones stamped after the data's last complete repair run began, deletes may be missing
 *       from it, so the data is dropped and the node goes on as one that started empty; else it
 *       serves its own data, or pulls its share first if the data was another member's.
 *   <li>Started empty ({@link DataState.Phase#DECIDING}): if no peer holds data, the cluster is new
 *       and the node serves at once; if one does, it pulls what it shares with every peer (a repair
 *       run that reached them all) and only then serves.
 * </ul>
 *
 * <p>It also records the data directory's {@link DataIdentity} whenever the membership changes,
 * except while the data is being checked.
 */
public final class Bootstrapper {
  private static final Logger log = LoggerFactory.getLogger(Bootstrapper.class);
  private static final long ASK_AGAIN_MS = 50;
  private static final long ASK_TIMEOUT_MS = 2_000;
  private static final long FIRST_RETRY_MS = 500;
  private static final long MAX_RETRY_MS = 10_000;

  /**
   * The largest admin status read from a peer: a status takes about a hundred bytes a member (its
   * URL and state, its pending hints) and a few KiB besides, so this is tens of thousands of
   * members; a peer answering more is not read into the heap.
   */
  private static final int MAX_STATUS_BYTES = 4 << 20;

  /**
   * A file in the data directory while the node's data may be incomplete: a node stopped during its
   * bootstrap starts again as one that started empty.
   */
  static final String INCOMPLETE_MARKER = "BOOTSTRAP-INCOMPLETE";

  private final Vertx vertx;
  private final Path dataDir;
  private final ClusterState cluster;
  private final DataState data;
  private final Runnable pull;
  private final Supplier<Future<Void>> drop;
  private final long repairedSinceMillis;
  private final long startedMillis = System.currentTimeMillis();
  private HttpClient http;
  private Function<String, RequestOptions> statusOf;
  private int failedPulls;
  private long timer = -1;
  private boolean stopped;

  /**
   * {@code pull} starts a repair run (unless one runs), whose outcome is to be passed to {@link
   * #pullFinished}; {@code drop} deletes every record of the node's data; {@code
   * repairedSinceMillis}: when the last repair run on this data that reached every peer began.
   */
  public Bootstrapper(
      Vertx vertx,
      Path dataDir,
      ClusterState cluster,
      DataState data,
      Runnable pull,
      Supplier<Future<Void>> drop,
      long repairedSinceMillis) {
    this.vertx = vertx;
    this.dataDir = dataDir;
    this.cluster = cluster;
    this.data = data;
    this.pull = pull;
    this.drop = drop;
    this.repairedSinceMillis = repairedSinceMillis;
  }

  /**
   * Whether {@code dataDir} holds a bootstrap left unfinished: its data is incomplete. Blocking:
   * for start-up.
   */
  public static boolean incomplete(Path dataDir) {
    return Files.exists(dataDir.resolve(INCOMPLETE_MARKER));
  }

  /** Marks {@code dataDir} incomplete until the bootstrap ends. Blocking: for start-up. */
  public static void markIncomplete(Path dataDir) throws IOException {
    Files.createDirectories(dataDir);
    Files.writeString(
        dataDir.resolve(INCOMPLETE_MARKER),
        "this node's data is incomplete: it has not pulled its data from its peers yet\n");
  }

  /** Starts, if the node must check or decide; call on the event loop the repairer runs on. */
  /**
   * Starts deciding, on the calling event loop: {@code http} reaches peers, and {@code statusOf}
   * makes the request for a peer's status.
   */
  public void start(HttpClient http, Function<String, RequestOptions> statusOf) {
    this.http = http;
    this.statusOf = statusOf;
    if (data.phase() == DataState.Phase.CHECKING) {
      log.info(
          "started on {} data: no reads or writes until the peers tell how far they purged",
          data.start() == DataIdentity.Start.FOREIGN ? "another member's" : "its own older");
      check();
    } else if (data.phase() == DataState.Phase.DECIDING) {
      log.info("started on an empty data directory: no reads until the peers are known");
      ask();
    }
    recordIdentity();
  }

  /**
   * Records whose data this is, at the current membership epoch; not while it is being checked (a
   * restart then checks again). Call when the membership changes.
   */
  public void recordIdentity() {
    if (data.phase() == DataState.Phase.CHECKING) {
      return;
    }
    Topology topology = cluster.topology();
    var identity = new DataIdentity(topology.self(), topology.epoch());
    vertx
        .executeBlocking(
            () -> {
              identity.write(dataDir);
              return null;
            },
            false)
        .onFailure(e -> log.warn("{}", e.getMessage()));
  }

  /** Whether any peer purged past this data's last complete repair: then it is dropped. */
  private void check() {
    if (stopped) {
      return;
    }
    List<Future<AdminStatus>> answers = askEveryPeer();
    Future.join(answers)
        .onComplete(done -> {
          var purged =
              answers.stream()
                  .filter(Future::succeeded)
                  .map(a -> a.result().tombstones())
                  .filter(t -> t != null && t.purgedBeforeMillis() > repairedSinceMillis)
                  .findFirst();
          if (purged.isPresent()) {
            dropStale(purged.get().purgedBeforeMillis());
          } else if (!answers.stream().allMatch(Future::succeeded)) {
            later(ASK_AGAIN_MS, this::check);
          } else if (data.mustPull()) {
            pullFirst("the data is not stale but incomplete");
          } else {
            serve("no peer purged past this data");
          }
        });
  }

  private void dropStale(long purgedBeforeMillis) {
    log.warn(
        "a peer purged tombstones up to {}, after this data's last complete repair ({}): deletes"
            + " may be missing from it, so it is dropped",
        java.time.Instant.ofEpochMilli(purgedBeforeMillis),
        java.time.Instant.ofEpochMilli(repairedSinceMillis));
    writeMarker()
        .compose(v -> drop.get())
        .onSuccess(v -> {
          data.dropped(DataState.mayMissData(cluster.topology()));
          recordIdentity();
          if (data.phase() == DataState.Phase.DECIDING) {
            ask();
          } else {
            serve("dropped the stale data; nothing to pull");
          }
        })
        .onFailure(e -> {
          log.warn("cannot drop the stale data ({}); trying again", e.getMessage());
          later(FIRST_RETRY_MS, () -> dropStale(purgedBeforeMillis));
        });
  }

  public void stop() {
    stopped = true;
    vertx.cancelTimer(timer);
  }

  private void ask() {
    if (stopped) {
      return;
    }
    List<Future<Boolean>> answers =
        askEveryPeer().stream().map(status -> status.map(this::holdsData)).toList();
    Future.join(answers)
        .onComplete(done -> {
          if (answers.stream().anyMatch(a -> a.succeeded() && a.result())) {
            pullFirst("a peer holds data");
          } else if (answers.stream().allMatch(Future::succeeded)) {
            serve("no peer holds data (a new cluster)");
          } else {
            later(ASK_AGAIN_MS, this::ask);
          }
        });
  }

  private void pullFirst(String why) {
    writeMarker()
        .onSuccess(v -> {
          data.bootstrapping();
          log.info("{}: pulling from every peer before serving reads", why);
          pull.run();
        })
        .onFailure(e -> {
          log.warn("cannot mark the data incomplete ({}); trying again", e.getMessage());
          later(FIRST_RETRY_MS, () -> pullFirst(why));
        });
  }

  /**
   * Whether the peer holds data this node may miss: data it held before this node started; a peer
   * whose status says nothing of it (an older version) runs on its data.
   */
  private boolean holdsData(AdminStatus status) {
    if (status.bootstrap() == null) {
      return true;
    }
    long since = status.bootstrap().heldDataSinceMillis();
    return since != DataState.NO_DATA && since < startedMillis;
  }

  private List<Future<AdminStatus>> askEveryPeer() {
    Topology topology = cluster.topology();
    List<Future<AdminStatus>> answers = new ArrayList<>();
    for (int m = 0; m < topology.members().size(); m++) {
      if (topology.isLivePeer(m)) {
        answers.add(status(topology.member(m)));
      }
    }
    return answers;
  }

  private Future<AdminStatus> status(String peer) {
    var options = statusOf.apply(peer).setTimeout(ASK_TIMEOUT_MS);
    return http.request(options)
        .compose(request -> request.send())
        .compose(response -> {
          if (response.statusCode() != 200) {
            return Future.failedFuture(peer + " answered " + response.statusCode());
          }
          return BoundedBody.read(response, MAX_STATUS_BYTES);
        })
        .map(body -> AdminStatus.fromJson(body.toString()));
  }

  /** The marker of incomplete data, written before the data is dropped or pulled. */
  private Future<Void> writeMarker() {
    return vertx.executeBlocking(
        () -> {
          markIncomplete(dataDir);
          return null;
        },
        false);
  }

  /** The outcome of a repair run: whether it reached every peer. */
  public void pullFinished(boolean succeeded) {
    if (stopped || data.phase() != DataState.Phase.BOOTSTRAPPING) {
      return;
    }
    if (succeeded) {
      serve("pulled from every peer");
      return;
    }
    failedPulls++;
    long delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS << Math.min(failedPulls, 10));
    later(delay, pull);
  }

  private void serve(String why) {
    vertx
        .fileSystem()
        .delete(dataDir.resolve(INCOMPLETE_MARKER).toString())
        .onSuccess(v -> {
          data.serving();
          recordIdentity();
          log.info("{}: serving reads", why);
        })
        .onFailure(e -> {
          log.warn("cannot mark the data complete ({}); trying again", e.getMessage());
          later(FIRST_RETRY_MS, () -> serve(why));
        });
  }

  private void later(long delayMs, Runnable action) {
    timer = vertx.setTimer(delayMs, t -> action.run());
  }
}
