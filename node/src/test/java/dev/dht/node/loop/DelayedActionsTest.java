package dev.dht.node.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DelayedActionsTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    vertx.close().await();
  }

  @Test
  void runsEachActionOnceAfterItsDelayInOrderAndNeverACancelledOne() {
    AtomicLong now = new AtomicLong(); // a clock the test moves; the timer only wakes the queue
    List<String> ran = new CopyOnWriteArrayList<>();
    vertx.runOnContext(v -> {
      DelayedActions actions = new DelayedActions(vertx, 10, 1, now::get);
      actions.schedule(() -> ran.add("first"));
      DelayedActions.Scheduled cancelled = actions.schedule(() -> ran.add("cancelled"));
      now.set(5_000_000);
      actions.schedule(() -> ran.add("last"));
      cancelled.cancel();
      now.set(10_000_000); // the first two are due, the last one 5 ms later
    });
    await().atMost(Duration.ofSeconds(5)).until(() -> ran.size() == 1);
    assertThat(ran).containsExactly("first");
    now.set(15_000_000);
    await().atMost(Duration.ofSeconds(5)).until(() -> ran.size() == 2);
    assertThat(ran).containsExactly("first", "last");
  }

  @Test
  void anActionThatThrowsDoesNotStopTheOthers() {
    AtomicLong now = new AtomicLong();
    List<String> ran = new CopyOnWriteArrayList<>();
    vertx.runOnContext(v -> {
      DelayedActions actions = new DelayedActions(vertx, 10, 1, now::get);
      actions.schedule(() -> {
        throw new IllegalStateException("boom");
      });
      actions.schedule(() -> ran.add("second"));
      now.set(5_000_000);
      actions.schedule(() -> ran.add("third"));
      now.set(10_000_000);
    });
    await().atMost(Duration.ofSeconds(5)).until(() -> ran.size() == 1);
    now.set(15_000_000);
    await().atMost(Duration.ofSeconds(5)).until(() -> ran.size() == 2);
    assertThat(ran).containsExactly("second", "third");
  }
}
