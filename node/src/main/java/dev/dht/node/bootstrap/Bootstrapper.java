package dev.dht.node.bootstrap;

import dev.dht.contract.AdminStatus;
import dev.dht.node.cluster.ClusterState;
import dev.dht.node.cluster.Topology;
import dev.dht.node.storage.Storage;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a node that started empty ({@link DataState.Phase#DECIDING}) to serving reads. It asks
 * every peer whether it holds data (their admin status): if none does, the cluster is new and the
 * node serves at once; if one does, it pulls what it shares with every peer (a repair run that
 * reached them all) and only then serves. With a peer down, it keeps asking, or keeps retrying the
 * pull, until it can: until then its reads fail (a 504 for a quorum that needs it, never an answer
 * that misses a write). Runs on the background event loop.
 */
public final class Bootstrapper {
  private static final Logger log = LoggerFactory.getLogger(Bootstrapper.class);
  private static final long ASK_AGAIN_MS = 50;
  private static final long ASK_TIMEOUT_MS = 2_000;
  private static final long FIRST_RETRY_MS = 500;
  private static final long MAX_RETRY_MS = 10_000;

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
  private final long startedMillis = System.currentTimeMillis();
  private HttpClient http;
  private int failedPulls;
  private long timer = -1;
  private boolean stopped;

  /**
   * {@code pull} starts a repair run (unless one runs), whose outcome is to be passed to {@link
   * #pullFinished}.
   */
  public Bootstrapper(
      Vertx vertx, Path dataDir, ClusterState cluster, DataState data, Runnable pull) {
    this.vertx = vertx;
    this.dataDir = dataDir;
    this.cluster = cluster;
    this.data = data;
    this.pull = pull;
  }

  /**
   * Whether {@code dataDir} holds a node's complete data: a database, and no bootstrap left
   * unfinished. Blocking: for start-up.
   */
  public static boolean completeData(Path dataDir) {
    return Storage.exists(dataDir) && !Files.exists(dataDir.resolve(INCOMPLETE_MARKER));
  }

  /** Marks {@code dataDir} incomplete until the bootstrap ends. Blocking: for start-up. */
  public static void markIncomplete(Path dataDir) throws IOException {
    Files.createDirectories(dataDir);
    Files.writeString(
        dataDir.resolve(INCOMPLETE_MARKER),
        "this node started on an empty data directory and has not pulled its data from its"
            + " peers yet\n");
  }

  /** Starts, if the node must decide; call on the event loop the repairer runs on. */
  public void start(HttpClient http) {
    this.http = http;
    if (data.phase() == DataState.Phase.DECIDING) {
      log.info("started on an empty data directory: no reads until the peers are known");
      ask();
    }
  }

  public void stop() {
    stopped = true;
    vertx.cancelTimer(timer);
  }

  private void ask() {
    if (stopped) {
      return;
    }
    Topology topology = cluster.topology();
    List<Future<Boolean>> answers = new ArrayList<>();
    for (int m = 0; m < topology.size(); m++) {
      if (!topology.isSelf(m)) {
        answers.add(holdsData(topology.member(m)));
      }
    }
    Future.join(answers)
        .onComplete(done -> {
          if (answers.stream().anyMatch(a -> a.succeeded() && a.result())) {
            data.bootstrapping();
            log.info("a peer holds data: pulling from every peer before serving reads");
            pull.run();
          } else if (answers.stream().allMatch(Future::succeeded)) {
            serve("no peer holds data (a new cluster)");
          } else {
            later(ASK_AGAIN_MS, this::ask);
          }
        });
  }

  /**
   * Whether the peer holds data this node may miss: data it held before this node started (from its
   * admin status); a peer whose status says nothing of it (an older version) runs on its data.
   */
  private Future<Boolean> holdsData(String peer) {
    var options =
        new RequestOptions()
            .setMethod(HttpMethod.GET)
            .setAbsoluteURI(peer + "/v0/admin/status")
            .setTimeout(ASK_TIMEOUT_MS);
    return http.request(options)
        .compose(request -> request.send())
        .compose(response -> {
          if (response.statusCode() != 200) {
            return Future.failedFuture(peer + " answered " + response.statusCode());
          }
          return response.body();
        })
        .map(body -> {
          var status = AdminStatus.fromJson(body.toString());
          if (status.bootstrap() == null) {
            return true;
          }
          long since = status.bootstrap().heldDataSinceMillis();
          return since != DataState.NO_DATA && since < startedMillis;
        });
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
