package dev.dht.node.auth;

import dev.dht.contract.UsersDocument;
import dev.dht.node.cluster.FileWatcher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings new users documents to {@link UsersInForce}: from the users file, re-read when it changes
 * (a mounted Secret, which the kubelet updates within a minute or two), and from the admin push
 * (which takes effect at once). A document is parsed and prepared on a worker thread: one of
 * thousands of users takes milliseconds, which an event loop must not spend.
 */
public final class UsersReloader {
  private static final Logger log = LoggerFactory.getLogger(UsersReloader.class);

  private final Vertx vertx;
  private final UsersInForce users;
  private final FileWatcher watcher;

  public UsersReloader(Vertx vertx, UsersInForce users, Path file) {
    this.vertx = vertx;
    this.users = users;
    this.watcher = new FileWatcher(vertx, file.toString(), this::fileChanged);
  }

  /** Re-reads the file every {@code periodMs} (when its time or size changed). */
  public void watch(long periodMs) {
    watcher.start(periodMs);
  }

  public void stop() {
    watcher.stop();
  }

  /**
   * A pushed document: fails with an {@link IllegalArgumentException} saying what is wrong with it,
   * else says whether it was applied.
   */
  public Future<UsersInForce.Offer> push(String json) {
    return apply(json, "an admin push");
  }

  private void fileChanged(String json) {
    apply(json, "the users file")
        .onFailure(e ->
            log.warn(
                "client users: the users file is not valid, the revision in force stays: {}",
                e.getMessage()));
  }

  private Future<UsersInForce.Offer> apply(String json, String source) {
    return vertx.executeBlocking(() -> users.offer(UsersDocument.parse(json), source), false);
  }
}
