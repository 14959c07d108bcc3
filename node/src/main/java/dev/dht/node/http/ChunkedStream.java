package dev.dht.node.http;

import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.util.List;

/**
 * A 200 response streamed in chunks that a worker reads from a source: the next batch is read only
 * once the previous one was written and the connection keeps up, so memory stays bounded whatever
 * the size of the whole. A source that fails after the headers are out resets the response (a
 * broken stream is the honest answer); the source is closed, on the worker, once, however the
 * response ends.
 */
final class ChunkedStream {
  /** What is streamed: read on the worker, one batch at a time. */
  interface Source {
    /** The next chunks, each written as one HTTP chunk; empty at the end. Blocks. */
    List<Buffer> next();

    /** Releases what the source holds. Blocks. */
    void close();
  }

  private final HttpServerResponse response;
  private final WorkerExecutor worker;
  private final Source source;
  private final Runnable release;
  private boolean finished;

  private ChunkedStream(
      HttpServerResponse response, WorkerExecutor worker, Source source, Runnable release) {
    this.response = response;
    this.worker = worker;
    this.source = source;
    this.release = release;
  }

  /** Starts the response; {@code release} runs once when it is over (ended, failed or left). */
  static void start(
      HttpServerResponse response, WorkerExecutor worker, Source source, Runnable release) {
    ChunkedStream stream = new ChunkedStream(response, worker, source, release);
    response.setChunked(true).setStatusCode(200);
    response.putHeader(HttpHeaders.CONTENT_TYPE, "application/octet-stream");
    response.closeHandler(v -> stream.finish());
    stream.pull();
  }

  private void pull() {
    worker
        .executeBlocking(source::next, false)
        .onComplete(batch -> {
          if (finished) {
            return;
          }
          if (batch.failed()) {
            response.reset();
            finish();
          } else if (batch.result().isEmpty()) {
            response.end();
            finish();
          } else {
            batch.result().forEach(response::write);
            if (response.writeQueueFull()) {
              response.drainHandler(v -> pull());
            } else {
              pull();
            }
          }
        });
  }

  /** Releases, once, and closes the source on the worker (after any batch still being read). */
  private void finish() {
    if (finished) {
      return;
    }
    finished = true;
    release.run();
    worker.executeBlocking(
        () -> {
          source.close();
          return null;
        },
        false);
  }
}
