package dev.dht.operator.bounded;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body kept in memory up to a cap. It asks for one buffer at a time, so nothing beyond
 * the cap is ever queued for it; past the cap, or when {@link #abort}ed (the deadline), it cancels
 * its subscription, which makes the HTTP client close the connection.
 */
final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
  private final ReadLimit limit;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private volatile Flow.Subscription subscription;

  private CappedBody(ReadLimit limit) {
    this.limit = limit;
  }

  /** A body for the response {@code info} describes; refused at once if it announces too much. */
  static CappedBody of(HttpResponse.ResponseInfo info, ReadLimit limit) {
    var body = new CappedBody(limit);
    var length = info.headers().firstValueAsLong("content-length");
    if (length.isPresent() && length.getAsLong() > limit.maxBytes()) {
      body.abort(limit.tooLarge());
    }
    return body;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (result.isDone()) {
      s.cancel();
    } else {
      s.request(1);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    long arriving = items.stream().mapToLong(ByteBuffer::remaining).sum();
    if (bytes.size() + arriving > limit.maxBytes()) {
      abort(limit.tooLarge());
      return;
    }
    for (ByteBuffer item : items) {
      byte[] copy = new byte[item.remaining()];
      item.get(copy);
      bytes.writeBytes(copy);
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable failure) {
    result.completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    result.complete(bytes.toByteArray());
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  /** Ends the read with {@code why}, and the connection with it. */
  void abort(Throwable why) {
    result.completeExceptionally(why);
    var s = subscription;
    if (s != null) {
      s.cancel();
    }
  }
}
