package dev.dht.node.tls;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the servers and clients that use TLS on the latest certificate, key and CAs: it re-reads
 * the files periodically and, when they changed, hands the new material to every user on its own
 * event loop. A renewed certificate or a CA rotation therefore needs no restart, and connections
 * already open keep theirs, except those whose client certificate no CA of the new bundle signed
 * ({@link VouchedConnections}). Files that cannot be read or parsed keep the material in force.
 */
public final class TlsReloader {
  private static final Logger log = LoggerFactory.getLogger(TlsReloader.class);

  private record User(Context context, Function<TlsMaterial, Future<Boolean>> apply) {}

  private final TlsFiles files;
  private final List<User> users = new CopyOnWriteArrayList<>();
  private volatile TlsMaterial current;
  private volatile PeerNames peerNames;

  public TlsReloader(TlsFiles files) {
    this.files = files;
    this.current = TlsMaterial.readNow(files);
    this.peerNames = current.peerNames();
  }

  /** The material in force. */
  public TlsMaterial current() {
    return current;
  }

  /** The names of the certificate in force, which a peer's must carry one of. */
  public PeerNames peerNames() {
    return peerNames;
  }

  /**
   * Registers a server's or client's update ({@code updateSSLOptions}), run on {@code context}
   * whenever the files change.
   */
  public void onChange(Context context, Function<TlsMaterial, Future<Boolean>> apply) {
    users.add(new User(context, apply));
  }

  /** Re-reads the files every {@code periodMs}; returns the timer. */
  public long watch(Vertx vertx, long periodMs) {
    return vertx.setPeriodic(periodMs, id -> reload(vertx));
  }

  private void reload(Vertx vertx) {
    TlsMaterial.read(vertx.fileSystem(), files)
        .onSuccess(read -> {
          if (!read.equals(current)) {
            current = read;
            peerNames = read.peerNames();
            log.info("TLS files changed: serving and connecting with the new certificate and CAs");
            users.forEach(user ->
                user.context()
                    .runOnContext(v ->
                        user.apply()
                            .apply(read)
                            .onFailure(e ->
                                log.warn(
                                    "new TLS files not taken, the old stay in force: {}",
                                    e.toString()))));
          }
        });
  }
}
