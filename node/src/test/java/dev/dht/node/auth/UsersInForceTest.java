package dev.dht.node.auth;

import static dev.dht.node.auth.UsersDocumentExamples.required;
import static dev.dht.node.auth.UsersDocumentExamples.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The document in force: only a higher revision replaces it, whoever offers first. */
class UsersInForceTest {
  @Test
  void onlyAHigherRevisionIsApplied() {
    UsersInForce users = new UsersInForce(required(5, user("a", "ta", 0)), System::nanoTime);
    assertThat(users.current().revision()).isEqualTo(5);
    assertThat(users.offer(required(4, user("b", "tb", 0)), "test"))
        .isEqualTo(new UsersInForce.Offer(false, 5));
    assertThat(users.offer(required(5, user("b", "tb", 0)), "test"))
        .as("the same revision with other users: a mistake, not applied")
        .isEqualTo(new UsersInForce.Offer(false, 5));
    assertThat(users.current().byTokenHash(UserDirectoryTest.sha256("ta"))).isNotNull();
    assertThat(users.offer(required(6, user("b", "tb", 0)), "test"))
        .isEqualTo(new UsersInForce.Offer(true, 6));
    assertThat(users.current().byTokenHash(UserDirectoryTest.sha256("ta"))).as("revoked").isNull();
    assertThat(users.current().byTokenHash(UserDirectoryTest.sha256("tb"))).isNotNull();
  }

  @Test
  void ofRacingOffersTheHighestRevisionEndsInForce() throws Exception {
    UsersInForce users = new UsersInForce(required(0), System::nanoTime);
    List<Integer> revisions = new ArrayList<>();
    for (int i = 1; i <= 400; i++) {
      revisions.add(i);
    }
    Collections.shuffle(revisions, new java.util.Random(7));
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<UsersInForce.Offer>> offers = new ArrayList<>();
      for (int revision : revisions) {
        offers.add(threads.submit(() -> users.offer(required(revision), "racer")));
      }
      long applied = 0;
      for (Future<UsersInForce.Offer> offer : offers) {
        applied += offer.get().applied() ? 1 : 0;
      }
      assertThat(users.current().revision()).isEqualTo(400);
      assertThat(applied).isBetween(1L, 400L);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aNodeStartedWithoutADocumentTakesNone() {
    UsersInForce users = new UsersInForce(null, System::nanoTime);
    assertThat(users.takesDocuments()).isFalse();
    assertThat(users.current()).isSameAs(UserDirectory.OPEN);
    assertThatThrownBy(() -> users.offer(required(1), "test"))
        .isInstanceOf(IllegalStateException.class);
  }
}
