package dev.dht.operator.loadtest.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dht.operator.loadtest.site.Reviews.Authentication;
import dev.dht.operator.loadtest.site.Reviews.Authorization;
import dev.dht.operator.loadtest.site.Reviews.Viewer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What the site asks the apiserver, and how often: a clock of the test's, no apiserver. */
class RememberedReviewsTest {
  static final Viewer ALICE = new Viewer("alice", "u-1", List.of("team-a"), Map.of());

  /** The apiserver, counting what it is asked: "bad" is no token, alice may read "team-a". */
  static class Apiserver implements Reviews {
    final AtomicInteger authentications = new AtomicInteger();
    final AtomicInteger authorizations = new AtomicInteger();

    @Override
    public Authentication authenticate(String token) {
      authentications.incrementAndGet();
      return token.equals("bad") ? Authentication.refused("invalid") : Authentication.of(ALICE);
    }

    @Override
    public Authorization authorize(Viewer viewer, String namespace, String name) {
      authorizations.incrementAndGet();
      return new Authorization("team-a".equals(namespace), "");
    }
  }

  final Apiserver apiserver = new Apiserver();
  final AtomicLong now = new AtomicLong(1_000_000_000L);
  final RememberedReviews reviews = new RememberedReviews(apiserver, now::get);

  /** A report page with six flame graphs: seven requests. */
  @Test
  void aPageAndItsFramesCostOneReviewOfEachKind() {
    for (int request = 0; request < 7; request++) {
      var who = reviews.authenticate("token-1");
      assertThat(reviews.authorize(who.viewer(), "team-a", "put-10k").allowed()).isTrue();
    }
    assertThat(apiserver.authentications).hasValue(1);
    assertThat(apiserver.authorizations).hasValue(1);
  }

  @Test
  void refusalsAreRememberedToo() {
    assertThat(reviews.authenticate("bad").authenticated()).isFalse();
    assertThat(reviews.authenticate("bad").error()).isEqualTo("invalid");
    assertThat(reviews.authorize(ALICE, "team-b", null).allowed()).isFalse();
    assertThat(reviews.authorize(ALICE, "team-b", null).allowed()).isFalse();
    assertThat(apiserver.authentications).hasValue(1);
    assertThat(apiserver.authorizations).hasValue(1);
  }

  @Test
  void answersAreForgottenAfterTenSeconds() {
    reviews.authenticate("token-1");
    reviews.authorize(ALICE, "team-a", null);
    now.addAndGet(RememberedReviews.REMEMBERED.toNanos() - 1);
    reviews.authenticate("token-1");
    reviews.authorize(ALICE, "team-a", null);
    assertThat(apiserver.authentications).hasValue(1);
    assertThat(apiserver.authorizations).hasValue(1);
    now.addAndGet(1);
    reviews.authenticate("token-1");
    reviews.authorize(ALICE, "team-a", null);
    assertThat(apiserver.authentications).hasValue(2);
    assertThat(apiserver.authorizations).hasValue(2);
  }

  @Test
  void eachTokenNamespaceTestAndUserIsAQuestionOfItsOwn() {
    reviews.authenticate("token-1");
    reviews.authenticate("token-2");
    reviews.authorize(ALICE, "team-a", null);
    reviews.authorize(ALICE, "team-a", "put-10k");
    reviews.authorize(ALICE, "team-b", null);
    reviews.authorize(ALICE, null, null);
    reviews.authorize(
        new Viewer("alice", "u-1", List.of("team-a", "admins"), Map.of()), "team-a", null);
    assertThat(apiserver.authentications).hasValue(2);
    assertThat(apiserver.authorizations).hasValue(5);
  }

  @Test
  void aFailedReviewIsNotRemembered() {
    var failing =
        new Apiserver() {
          @Override
          public Authentication authenticate(String token) {
            if (authentications.incrementAndGet() == 1) {
              throw new Unavailable(504, "too slow", null);
            }
            return Authentication.of(ALICE);
          }
        };
    var remembered = new RememberedReviews(failing, now::get);
    assertThatThrownBy(() -> remembered.authenticate("token-1"))
        .isInstanceOf(Reviews.Unavailable.class);
    assertThat(remembered.authenticate("token-1").authenticated()).isTrue();
    assertThat(failing.authentications).hasValue(2);
  }

  @Test
  void atMostCapacityAnswersAreKeptTheLeastUsedGoFirst() {
    for (int i = 0; i <= RememberedReviews.CAPACITY; i++) {
      reviews.authenticate("token-" + i);
    }
    assertThat(apiserver.authentications).hasValue(RememberedReviews.CAPACITY + 1);
    reviews.authenticate("token-" + RememberedReviews.CAPACITY);
    assertThat(apiserver.authentications)
        .as("the newest is kept")
        .hasValue(RememberedReviews.CAPACITY + 1);
    reviews.authenticate("token-0");
    assertThat(apiserver.authentications)
        .as("the oldest went")
        .hasValue(RememberedReviews.CAPACITY + 2);
  }

  /** Made-up tokens are never remembered as granted, but each costs a review: four at once. */
  @Test
  void atMostFourReviewsAtOnceTheNextWaitsThenIs503() throws Exception {
    var inside = new CountDownLatch(RememberedReviews.AT_ONCE);
    var release = new CountDownLatch(1);
    var slow =
        new Apiserver() {
          @Override
          public Authentication authenticate(String token) {
            inside.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return super.authenticate(token);
          }
        };
    var remembered = new RememberedReviews(slow, now::get);
    var pool = Executors.newVirtualThreadPerTaskExecutor();
    var running = new ArrayList<java.util.concurrent.Future<Authentication>>();
    for (int i = 0; i < RememberedReviews.AT_ONCE; i++) {
      String token = "token-" + i;
      running.add(pool.submit(() -> remembered.authenticate(token)));
    }
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    assertThatThrownBy(() -> remembered.authenticate("one-too-many"))
        .isInstanceOfSatisfying(
            Reviews.Unavailable.class, e -> assertThat(e.status()).isEqualTo(503));
    assertThat(slow.authentications).as("the fifth never reached the apiserver").hasValue(0);
    release.countDown();
    for (var review : running) {
      assertThat(review.get(10, TimeUnit.SECONDS).authenticated()).isTrue();
    }
    pool.close();
    assertThat(remembered.authenticate("one-too-many").authenticated()).as("a turn again").isTrue();
  }

  @Test
  void tokensAreKeptAsTheirSha256() {
    assertThat(RememberedReviews.sha256("abc"))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }
}
