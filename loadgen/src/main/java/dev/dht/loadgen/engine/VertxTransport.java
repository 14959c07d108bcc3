package dev.dht.loadgen.engine;

import io.vertx.core.AsyncResult;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.ConnectException;
import java.util.concurrent.TimeoutException;

/**
 * A {@link Transport} over one Vert.x HTTP/1.1 keep-alive connection, opened on first use and again
 * after a failure (a timed-out request leaves the connection in an unknown state, so it is closed).
 * The handlers are allocated once: with one request in flight, per-request state lives in fields.
 * Confined to the event loop of the client's context.
 */
final class VertxTransport implements Transport {
  private final HttpClientAgent client;
  private final HttpConnectOptions connectOptions;
  private final String host;
  private final int port;
  private final long timeoutMillis;
  private final Buffer value;

  /** {@code Bearer <token>}, sent with every request; null: no Authorization header. */
  private final CharSequence authorization;

  private final Handler<AsyncResult<HttpClientConnection>> onConnected = this::connected;
  private final Handler<AsyncResult<HttpClientRequest>> onRequest = this::requestReady;
  private final Handler<AsyncResult<HttpClientResponse>> onResponse = this::responded;
  private final Handler<AsyncResult<Buffer>> onBody = this::bodyRead;

  private HttpClientConnection connection;
  private PlannedRequest request;
  private Callback callback;
  private int status;

  VertxTransport(
      HttpClientAgent client,
      String host,
      int port,
      long timeoutMillis,
      Buffer value,
      String token) {
    this.client = client;
    this.authorization = token == null ? null : HttpHeaders.createOptimized("Bearer " + token);
    this.host = host;
    this.port = port;
    this.timeoutMillis = timeoutMillis;
    this.value = value;
    this.connectOptions =
        new HttpConnectOptions().setHost(host).setPort(port).setConnectTimeout(timeoutMillis);
  }

  @Override
  public void send(PlannedRequest request, Callback callback) {
    this.request = request;
    this.callback = callback;
    if (connection == null) {
      client.connect(connectOptions).onComplete(onConnected);
    } else {
      issue(connection);
    }
  }

  /**
   * Connects and sends one {@code GET /v0/status}, so that the first measured requests pay neither
   * for the connection nor for loading and compiling the request path.
   */
  @Override
  public void open(Runnable done) {
    client
        .connect(connectOptions)
        .compose(c ->
            adopt(c)
                .request(
                    authorized(
                        new RequestOptions()
                            .setHost(host)
                            .setPort(port)
                            .setURI("/v0/status")
                            .setIdleTimeout(timeoutMillis))))
        .compose(HttpClientRequest::send)
        .compose(HttpClientResponse::body)
        .onComplete(ar -> done.run());
  }

  private void connected(AsyncResult<HttpClientConnection> ar) {
    if (ar.failed()) {
      complete(failure(ar.cause(), Failure.CONNECT));
      return;
    }
    issue(adopt(ar.result()));
  }

  private HttpClientConnection adopt(HttpClientConnection c) {
    connection = c;
    c.closeHandler(v -> {
      if (connection == c) {
        connection = null;
      }
    });
    return c;
  }

  private void issue(HttpClientConnection c) {
    RequestOptions options =
        new RequestOptions()
            .setMethod(request.put() ? HttpMethod.PUT : HttpMethod.GET)
            .setHost(host)
            .setPort(port)
            .setURI(request.uri())
            .setIdleTimeout(timeoutMillis);
    c.request(authorized(options)).onComplete(onRequest);
  }

  private RequestOptions authorized(RequestOptions options) {
    return authorization == null
        ? options
        : options.putHeader(HttpHeaders.AUTHORIZATION, authorization);
  }

  private void requestReady(AsyncResult<HttpClientRequest> ar) {
    if (ar.failed()) {
      fail(ar.cause());
      return;
    }
    HttpClientRequest req = ar.result();
    (request.put() ? req.send(value) : req.send()).onComplete(onResponse);
  }

  private void responded(AsyncResult<HttpClientResponse> ar) {
    if (ar.failed()) {
      fail(ar.cause());
      return;
    }
    status = ar.result().statusCode();
    ar.result().body().onComplete(onBody);
  }

  private void bodyRead(AsyncResult<Buffer> ar) {
    if (ar.failed()) {
      fail(ar.cause());
      return;
    }
    Callback cb = callback;
    callback = null;
    cb.onResponse(status, ar.result().length());
  }

  private void fail(Throwable cause) {
    HttpClientConnection c = connection;
    connection = null;
    if (c != null) {
      c.close();
    }
    complete(failure(cause, Failure.IO));
  }

  private void complete(Failure failure) {
    Callback cb = callback;
    callback = null;
    if (cb != null) {
      cb.onFailure(failure);
    }
  }

  private static Failure failure(Throwable cause, Failure otherwise) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException
          || t instanceof io.netty.channel.ConnectTimeoutException
          || t.getClass().getSimpleName().contains("Timeout")) {
        return Failure.TIMEOUT;
      }
      if (t instanceof ConnectException) {
        return Failure.CONNECT;
      }
    }
    return otherwise;
  }
}
