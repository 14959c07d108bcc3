package dev.dht.node.auth;

import dev.dht.contract.UsersDocument;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users document in force on this node, shared by every event loop: one reference, read once
 * per client request and swapped whole. A document replaces it only if its revision is higher, so
 * the two ways a document arrives (the file, re-read every second, and the operator's push, which
 * makes a revocation take effect before the kubelet updates the file) may arrive in any order and
 * the newest wins; a file that still holds the revision before a push does not bring it back.
 */
public final class UsersInForce {
  private static final Logger log = LoggerFactory.getLogger(UsersInForce.class);

  /** What became of an offered document, and the revision in force after it. */
  public record Offer(boolean applied, long revision) {}

  private final AtomicReference<UserDirectory> current;
  private final LongSupplier nanoClock;
  private final boolean fromDocuments;

  /**
   * The users of {@code initial}; null: a node without a users document, which authenticates nobody
   * and takes no document ({@link #offer} refuses).
   */
  public UsersInForce(UsersDocument initial, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.fromDocuments = initial != null;
    this.current =
        new AtomicReference<>(
            initial == null ? UserDirectory.OPEN : UserDirectory.of(initial, null, nanoClock));
    if (initial != null) {
      log.info("client users: revision {} in force, {}", initial.revision(), summary(current()));
    }
  }

  /** The directory in force: one volatile read. */
  public UserDirectory current() {
    return current.get();
  }

  /** Whether this node takes users documents (it was started with one). */
  public boolean takesDocuments() {
    return fromDocuments;
  }

  /**
   * Puts {@code document} in force if its revision is higher than the one in force; {@code source}
   * says where it came from, for the log. Thread-safe: of two racing offers, the higher revision
   * ends up in force.
   */
  public Offer offer(UsersDocument document, String source) {
    if (!fromDocuments) {
      throw new IllegalStateException("this node was started without a users document");
    }
    while (true) {
      UserDirectory before = current.get();
      if (document.revision() <= before.revision()) {
        if (document.revision() == before.revision() && !document.equals(before.document())) {
          log.warn(
              "client users: {} has revision {}, the one in force, with other contents: not"
                  + " applied (a changed document needs a higher revision)",
              source,
              document.revision());
        }
        return new Offer(false, before.revision());
      }
      UserDirectory next = UserDirectory.of(document, before, nanoClock);
      if (current.compareAndSet(before, next)) {
        log.info(
            "client users: revision {} from {} in force (was {}), {}",
            document.revision(),
            source,
            before.revision(),
            summary(next));
        return new Offer(true, document.revision());
      }
    }
  }

  private static String summary(UserDirectory users) {
    var names = users.names();
    return "authentication "
        + users.authentication()
        + ", "
        + (names.size() <= 20 ? "users " + names : names.size() + " users");
  }
}
