package dev.dht.operator.loadtest.site;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Reviews remembered for {@link #REMEMBERED}, refusals as well as grants, so that a report page and
 * its framed flame graphs cost one TokenReview and one SubjectAccessReview; and at most {@link
 * #AT_ONCE} asked of the apiserver at a time, so that a flood of requests with made-up tokens
 * cannot make the operator flood the apiserver. A revoked token or a withdrawn Role still works for
 * up to {@link #REMEMBERED}.
 *
 * <p>Tokens are remembered by their SHA-256, never as such; a SubjectAccessReview by what it asks
 * (the user, their groups, uid and extra, the namespace and the name). A review that failed is not
 * remembered.
 */
final class RememberedReviews implements Reviews {
  static final Duration REMEMBERED = Duration.ofSeconds(10);
  static final int CAPACITY = 1024;
  static final int AT_ONCE = 4;
  static final Duration WAIT_FOR_A_TURN = Duration.ofSeconds(2);

  private record Asked(Viewer viewer, String namespace, String name) {}

  private final Reviews apiserver;
  private final Semaphore turns = new Semaphore(AT_ONCE, true);
  private final Memory<String, Authentication> authentications;
  private final Memory<Asked, Authorization> authorizations;

  RememberedReviews(Reviews apiserver) {
    this(apiserver, System::nanoTime);
  }

  /** {@code clock}: nanoseconds, as {@link System#nanoTime()}. */
  RememberedReviews(Reviews apiserver, LongSupplier clock) {
    this.apiserver = apiserver;
    this.authentications = new Memory<>(clock);
    this.authorizations = new Memory<>(clock);
  }

  @Override
  public Authentication authenticate(String token) {
    String key = sha256(token);
    var known = authentications.get(key);
    if (known != null) {
      return known;
    }
    var answer = inTurn(() -> apiserver.authenticate(token));
    authentications.put(key, answer);
    return answer;
  }

  @Override
  public Authorization authorize(Viewer viewer, String namespace, String name) {
    var asked = new Asked(viewer, namespace, name);
    var known = authorizations.get(asked);
    if (known != null) {
      return known;
    }
    var answer = inTurn(() -> apiserver.authorize(viewer, namespace, name));
    authorizations.put(asked, answer);
    return answer;
  }

  private <T> T inTurn(Supplier<T> review) {
    boolean turn;
    try {
      turn = turns.tryAcquire(WAIT_FOR_A_TURN.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Unavailable(503, "interrupted while waiting to review the token", e);
    }
    if (!turn) {
      throw new Unavailable(503, "too many token reviews at once: try again", null);
    }
    try {
      return review.get();
    } finally {
      turns.release();
    }
  }

  static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /** Answers by key, each for {@link #REMEMBERED}; beyond {@link #CAPACITY}, the least used go. */
  private static final class Memory<K, V> {
    private record Kept<V>(V value, long since) {}

    private final LongSupplier clock;
    private final Map<K, Kept<V>> kept =
        new LinkedHashMap<>(64, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<K, Kept<V>> eldest) {
            return size() > CAPACITY;
          }
        };

    Memory(LongSupplier clock) {
      this.clock = clock;
    }

    synchronized V get(K key) {
      var entry = kept.get(key);
      if (entry == null) {
        return null;
      }
      if (clock.getAsLong() - entry.since() >= REMEMBERED.toNanos()) {
        kept.remove(key);
        return null;
      }
      return entry.value();
    }

    synchronized void put(K key, V value) {
      kept.put(key, new Kept<>(value, clock.getAsLong()));
    }
  }
}
