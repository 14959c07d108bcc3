package dev.dht.node.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** A user's quota, on a clock the test moves. */
class TokenBucketTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aFullBucketTakesOneSecondsWorthAtOnceThenKeepsToTheRate() {
    AtomicLong now = new AtomicLong(-5 * SECOND); // nanoTime may be negative
    TokenBucket bucket = new TokenBucket(4, now::get);
    for (int i = 0; i < 4; i++) {
      assertThat(bucket.tryTake()).as("request " + i + " of the burst").isZero();
    }
    assertThat(bucket.tryTake()).as("the fifth waits a quarter second").isEqualTo(SECOND / 4);
    now.addAndGet(SECOND / 8);
    assertThat(bucket.tryTake()).isEqualTo(SECOND / 8);
    now.addAndGet(SECOND / 8);
    assertThat(bucket.tryTake()).isZero();
    assertThat(bucket.tryTake()).isEqualTo(SECOND / 4);
    now.addAndGet(60 * SECOND);
    for (int i = 0; i < 4; i++) {
      assertThat(bucket.tryTake()).as("idle for a minute: one burst, not sixty").isZero();
    }
    assertThat(bucket.tryTake()).isPositive();
  }

  @Test
  void aRefusedRequestTakesNothing() {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(1, now::get);
    assertThat(bucket.tryTake()).isZero();
    for (int i = 0; i < 10; i++) {
      assertThat(bucket.tryTake()).isEqualTo(SECOND);
    }
    now.addAndGet(SECOND);
    assertThat(bucket.tryTake()).isZero();
  }

  @Test
  void retryAfterIsWholeSecondsRoundedUpAtLeastOne() {
    assertThat(TokenBucket.retryAfterSeconds(1)).isEqualTo(1);
    assertThat(TokenBucket.retryAfterSeconds(SECOND)).isEqualTo(1);
    assertThat(TokenBucket.retryAfterSeconds(SECOND + 1)).isEqualTo(2);
    assertThat(TokenBucket.retryAfterSeconds(0)).isEqualTo(1);
  }

  @Test
  void threadsRacingForTheBucketTakeExactlyItsTokens() throws Exception {
    TokenBucket bucket = new TokenBucket(500, () -> 42); // a clock that stands still
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Callable<Integer>> racers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        racers.add(() -> {
          int taken = 0;
          for (int i = 0; i < 1000; i++) {
            taken += bucket.tryTake() == 0 ? 1 : 0;
          }
          return taken;
        });
      }
      int total = 0;
      for (Future<Integer> racer : threads.invokeAll(racers)) {
        total += racer.get();
      }
      assertThat(total).isEqualTo(500);
    } finally {
      threads.shutdownNow();
    }
  }

  /** Never more than the burst and the rate since: at most C + t / interval by time t. */
  @Property
  void nothingBeyondTheBurstAndTheRate(
      @ForAll @LongRange(min = 1, max = 2000) long perSecond,
      @ForAll @Size(max = 300) List<@IntRange(min = 0, max = 50_000_000) Integer> gaps) {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(perSecond, now::get);
    long interval = SECOND / perSecond;
    long taken = 0;
    for (int gap : gaps) {
      now.addAndGet(gap);
      if (bucket.tryTake() == 0) {
        taken++;
      }
      assertThat(taken).isLessThanOrEqualTo(perSecond + now.get() / interval);
    }
  }

  /** A client that keeps to the rate is never refused, however long it goes on. */
  @Property
  void aClientAtTheRateIsNeverRefused(
      @ForAll @LongRange(min = 1, max = 1_000_000) long perSecond,
      @ForAll @IntRange(min = 1, max = 500) int requests) {
    AtomicLong now = new AtomicLong();
    TokenBucket bucket = new TokenBucket(perSecond, now::get);
    for (int i = 0; i < requests; i++) {
      assertThat(bucket.tryTake()).isZero();
      now.addAndGet(SECOND / perSecond);
    }
  }
}
