package dev.dht.node.replication;

import dev.dht.node.cluster.ClockOffsets;
import dev.dht.node.metrics.NodeMetrics;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batches as {@link PeerFrames} over one connection to the peer, opened when first needed and again
 * after it closes: any number of batches in flight, answered by id in any order, each a frame and
 * no HTTP request. A batch with no answer by its deadline fails, and its connection is closed (the
 * peer is hung or gone; the next batch opens a new connection and finds out which), as an HTTP
 * batch's idle timeout does. A connection opened with a cluster secret that has since been rotated
 * takes no more batches and closes once they are answered: the next one presents the current
 * secret. What is in flight is bounded by its {@link PeerChannel}. A peer that refuses the upgrade
 * (a node that does not know the protocol) fails the batch with {@link UpgradeRefusedException}.
 * Used from its event loop only.
 */
final class FramedLink implements BatchLink {
  private static final Logger log = LoggerFactory.getLogger(FramedLink.class);

  /** The peer answered the upgrade with something else than 101: it does not speak the protocol. */
  static final class UpgradeRefusedException extends RuntimeException {
    UpgradeRefusedException(String message) {
      super(message, null, false, false);
    }
  }

  private record InFlight(
      Promise<List<BatchCodec.Result>> answer,
      int ops,
      long maxAnswerBytes,
      long sentNanos,
      long timer) {}

  private final Vertx vertx;
  private final HttpClientAgent client;
  private final String member;
  private final PeerTransport transport;
  private final ClockOffsets offsets;
  private final long connectTimeoutMs;
  private final NodeMetrics metrics;
  private Future<Connection> connection; // the one open or opening; null: none
  private HttpClientRequest upgrading; // the upgrade request of a connection still opening
  private boolean refused;
  private long refusedAtNanos;

  FramedLink(
      Vertx vertx,
      HttpClientAgent client,
      String member,
      PeerTransport transport,
      ClockOffsets offsets,
      long connectTimeoutMs,
      NodeMetrics metrics) {
    this.metrics = metrics;
    this.vertx = vertx;
    this.client = client;
    this.member = member;
    this.transport = transport;
    this.offsets = offsets;
    this.connectTimeoutMs = connectTimeoutMs;
  }

  @Override
  public Future<List<BatchCodec.Result>> send(
      List<ReplicaOp> ops, long remainingMs, long maxAnswerBytes) {
    long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(remainingMs);
    if (connection != null && connection.failed()) {
      connection = null;
    }
    if (connection != null
        && connection.succeeded()
        && !Objects.equals(connection.result().secret, transport.currentSecret())) {
      connection.result().retire(); // opened with a secret since rotated: peers may drop it
      connection = null;
    }
    if (connection == null) {
      connection = open(Math.min(remainingMs, connectTimeoutMs));
    }
    Future<Connection> via = connection;
    Promise<List<BatchCodec.Result>> answer = Promise.promise();
    long timer =
        vertx.setTimer(
            remainingMs,
            t -> {
              if (answer.tryFail("no answer from the peer within " + remainingMs + " ms")) {
                abandon(via);
              }
            });
    via.onComplete(open -> {
      if (open.failed()) {
        vertx.cancelTimer(timer);
        answer.tryFail(open.cause());
      } else if (!answer.future().isComplete()) {
        open.result().send(ops, deadlineNanos, maxAnswerBytes, answer, timer);
      }
    });
    return answer.future();
  }

  /** Whether the peer refused the upgrade less than {@code nanos} ago. */
  boolean refusedWithin(long nanos) {
    return refused && System.nanoTime() - refusedAtNanos < nanos;
  }

  /** Closes every connection: the node is stopping. */
  void close() {
    if (connection != null) {
      abandon(connection);
    }
  }

  /** Gives up {@code via}: closed now, or once it opens; the next batch opens another. */
  private void abandon(Future<Connection> via) {
    if (connection == via) {
      connection = null;
      if (!via.isComplete() && upgrading != null) {
        upgrading.reset(); // no answer to the upgrade: give its connection up
      }
    }
    via.onSuccess(Connection::close);
  }

  private Future<Connection> open(long timeoutMs) {
    Promise<Connection> opened = Promise.promise();
    connection = opened.future(); // before the request: its callbacks may run at once
    String secret = transport.currentSecret();
    client
        .request(
            transport
                .request(member, HttpMethod.GET, PeerFrames.PATH)
                .setConnectTimeout(Math.max(1, timeoutMs))
                .putHeader(HttpHeaders.UPGRADE, PeerFrames.PROTOCOL)
                .putHeader(HttpHeaders.CONNECTION, HttpHeaders.UPGRADE))
        .compose(request -> {
          if (connection == opened.future()) {
            upgrading = request;
          } else {
            request.reset(); // given up before it was sent
          }
          return request.connect();
        })
        .<Connection>compose(response -> {
          if (response.statusCode() == 101) {
            return Future.succeededFuture(new Connection(response.netSocket(), secret));
          }
          response.request().connection().close();
          String answer =
              member
                  + " answered "
                  + response.statusCode()
                  + " to an upgrade to "
                  + PeerFrames.PROTOCOL;
          int status = response.statusCode();
          return Future.failedFuture(
              status == 400 || status == 404
                  ? new UpgradeRefusedException(answer) // a node that does not know the path
                  : new IllegalStateException(answer));
        })
        .onComplete(opened);
    Future<Connection> future = opened.future();
    future.onComplete(done -> {
      if (connection == future) {
        upgrading = null;
      }
      if (done.failed() && done.cause() instanceof UpgradeRefusedException) {
        if (!refusedWithin(PeerLinks.HTTP_FOR_NANOS)) {
          log.info("{}; sending it HTTP batches for a minute", done.cause().getMessage());
        }
        refused = true;
        refusedAtNanos = System.nanoTime();
      }
    });
    return future;
  }

  /** One open connection and the batches in flight on it. */
  private final class Connection {
    private final NetSocket socket;
    private final String secret; // the one the connection was opened with
    private final Map<Integer, InFlight> inFlight = new HashMap<>();
    private final PeerFrames.Reader reader = new PeerFrames.Reader(this::maxPayload, this::frame);
    private int nextId = 1; // 0: the connection as a whole, in the peer's refusals
    private boolean closed;
    private boolean retiring;

    Connection(NetSocket socket, String secret) {
      this.socket = socket;
      this.secret = secret;
      socket.handler(chunk -> {
        try {
          reader.feed(chunk);
        } catch (RuntimeException e) {
          failAll("malformed frames from the peer: " + e.getMessage());
          socket.close();
        }
      });
      socket.exceptionHandler(e -> socket.close());
      socket.closeHandler(v -> failAll("the connection to the peer closed"));
    }

    void send(
        List<ReplicaOp> ops,
        long deadlineNanos,
        long maxAnswerBytes,
        Promise<List<BatchCodec.Result>> answer,
        long timer) {
      if (closed) {
        vertx.cancelTimer(timer);
        answer.tryFail("the connection to the peer closed");
        return;
      }
      long remainingMs =
          Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime() + 999_999));
      int id = nextId++;
      inFlight.put(id, new InFlight(answer, ops.size(), maxAnswerBytes, System.nanoTime(), timer));
      metrics.peerBatch(true);
      socket.write(PeerFrames.ops(id, remainingMs, ops));
    }

    void close() {
      socket.close();
    }

    /** Takes no more batches, and closes once those in flight are answered. */
    void retire() {
      retiring = true;
      if (inFlight.isEmpty()) {
        close();
      }
    }

    private long maxPayload(byte kind, int id) {
      if (id == 0 && kind == PeerFrames.REFUSED) { // the connection as a whole
        return 2 + PeerFrames.MAX_REASON_BYTES;
      }
      InFlight batch = inFlight.get(id);
      if (batch == null) {
        return -1;
      }
      return switch (kind) {
        case PeerFrames.RESULTS -> Long.BYTES + batch.maxAnswerBytes();
        case PeerFrames.REFUSED -> 2 + PeerFrames.MAX_REASON_BYTES;
        default -> -1;
      };
    }

    private void frame(PeerFrames.Frame frame) {
      if (frame.id() == 0) {
        Buffer payload = frame.payload();
        failAll(
            "peer refused the connection: "
                + PeerFrames.refusedStatus(payload)
                + " "
                + PeerFrames.refusedReason(payload));
        socket.close();
        return;
      }
      InFlight batch = inFlight.remove(frame.id());
      vertx.cancelTimer(batch.timer());
      try {
        answer(batch, frame);
      } catch (RuntimeException e) {
        batch.answer().tryFail(e);
        throw e;
      }
      if (retiring && inFlight.isEmpty()) {
        close();
      }
    }

    private void answer(InFlight batch, PeerFrames.Frame frame) {
      Buffer payload = frame.payload();
      if (frame.kind() == PeerFrames.REFUSED) {
        int status = PeerFrames.refusedStatus(payload);
        batch
            .answer()
            .tryFail("peer answered " + status + ": " + PeerFrames.refusedReason(payload));
        return;
      }
      if (payload.length() < Long.BYTES) {
        throw new BatchCodec.MalformedException("results of " + payload.length() + " bytes");
      }
      offsets.sample(
          member, payload.getLong(0), batch.sentNanos() / 1_000_000, System.nanoTime() / 1_000_000);
      batch
          .answer()
          .tryComplete(
              BatchCodec.decodeResults(payload.slice(Long.BYTES, payload.length()), batch.ops()));
    }

    private void failAll(String why) {
      closed = true;
      if (connection != null && connection.succeeded() && connection.result() == this) {
        connection = null;
      }
      List<InFlight> failed = new ArrayList<>(inFlight.values());
      inFlight.clear();
      for (InFlight batch : failed) {
        vertx.cancelTimer(batch.timer());
        batch.answer().tryFail(why);
      }
    }
  }
}
