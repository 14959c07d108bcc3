package dev.dht.operator.bounded;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * HTTP answers read with a {@link ReadLimit}: at most so many bytes, the whole answer within so
 * long. {@link HttpRequest#timeout} alone is not enough: it ends when the headers arrive, so a
 * server that sends its body a byte a second would hold a reconciler thread for ever; and the JDK's
 * body handlers keep whatever the server sends.
 */
public final class BoundedHttp {
  /** A status and the body, complete and within the limit. */
  public record Answer(int status, byte[] body) {
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  private BoundedHttp() {}

  /**
   * Sends {@code request}; the answer fails with {@link TooLargeException} past the size, with
   * {@link HttpTimeoutException} past the time (the exchange is then cancelled, its connection
   * closed), or with whatever the client met.
   */
  public static CompletableFuture<Answer> sendAsync(
      HttpClient http, HttpRequest request, ReadLimit limit) {
    var body = new AtomicReference<CappedBody>();
    var sent =
        http.sendAsync(
            request,
            info -> {
              var capped = CappedBody.of(info, limit);
              body.set(capped);
              return capped;
            });
    var answer = new CompletableFuture<Answer>();
    sent.whenComplete((response, failure) -> {
      if (failure != null) {
        answer.completeExceptionally(unwrap(failure));
      } else {
        answer.complete(new Answer(response.statusCode(), response.body()));
      }
    });
    CompletableFuture.delayedExecutor(limit.within().toMillis(), TimeUnit.MILLISECONDS)
        .execute(() ->
            answer.completeExceptionally(
                new HttpTimeoutException(
                    limit.what()
                        + ": no whole answer within "
                        + limit.within().toMillis()
                        + " ms")));
    answer.whenComplete((done, failure) -> {
      if (failure != null) { // timed out or cancelled by the caller: stop reading, free the socket
        sent.cancel(true);
        var capped = body.get();
        if (capped != null) {
          capped.abort(failure);
        }
      }
    });
    return answer;
  }

  /** As {@link #sendAsync}, waiting for the answer; an interrupt cancels the exchange. */
  public static Answer send(HttpClient http, HttpRequest request, ReadLimit limit)
      throws IOException, InterruptedException {
    var answer = sendAsync(http, request, limit);
    try {
      return answer.get();
    } catch (InterruptedException e) {
      answer.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io
          ? io
          : new IOException(limit.what() + ": " + e.getCause(), e.getCause());
    }
  }

  /** The failure that says what happened: a cap that was hit first, however the client wraps it. */
  private static Throwable unwrap(Throwable failure) {
    for (var cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof TooLargeException) {
        return cause;
      }
    }
    var cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
