package dev.dht.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.backup.Retention.Candidate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** Which of a schedule's backups retention deletes: examples and properties. */
class RetentionTest {
  private static final Instant T0 = Instant.parse("2025-03-01T00:00:00Z");

  private static Candidate backup(int hour, String phase) {
    return new Candidate("b-" + hour, phase, T0.plusSeconds(3600L * hour));
  }

  @Test
  void keepsTheNewestCompletedAndTheFailuresAfterThem() {
    var backups =
        List.of(
            backup(1, DhtBackupStatus.COMPLETED),
            backup(2, DhtBackupStatus.FAILED),
            backup(3, DhtBackupStatus.COMPLETED),
            backup(4, DhtBackupStatus.COMPLETED),
            backup(5, DhtBackupStatus.FAILED),
            backup(6, DhtBackupStatus.RUNNING));
    assertThat(Retention.toDelete(backups, 2)).containsExactly("b-2", "b-1");
    assertThat(Retention.toDelete(backups, 1)).containsExactly("b-3", "b-2", "b-1");
    assertThat(Retention.toDelete(backups, 7)).containsExactly("b-2");
  }

  @Test
  void failuresStayUntilABackupCompletes() {
    var backups =
        List.of(
            backup(1, DhtBackupStatus.FAILED),
            backup(2, DhtBackupStatus.FAILED),
            backup(3, DhtBackupStatus.PENDING),
            backup(4, null));
    assertThat(Retention.toDelete(backups, 1)).isEmpty();
  }

  @Property
  void retentionKeepsWhatItPromises(
      @ForAll("histories") List<Candidate> backups, @ForAll @IntRange(min = 1, max = 5) int keep) {
    var deleted = new HashSet<>(Retention.toDelete(backups, keep));
    var kept = backups.stream().filter(b -> !deleted.contains(b.name())).toList();
    var completed =
        backups.stream()
            .filter(Candidate::completed)
            .sorted(Comparator.comparing(Candidate::time).reversed())
            .toList();
    Optional<Instant> newestCompleted = completed.stream().findFirst().map(Candidate::time);

    assertThat(backups.stream().map(Candidate::name)).containsAll(deleted);
    // never a backup that is not finished
    assertThat(backups.stream().filter(b -> deleted.contains(b.name())))
        .allMatch(b -> b.completed() || b.failed());
    // exactly the newest keep completed ones stay
    assertThat(kept.stream().filter(Candidate::completed).toList())
        .containsExactlyInAnyOrderElementsOf(
            completed.subList(0, Math.min(keep, completed.size())));
    // a failed backup stays exactly when no completed one is newer
    for (var b : backups.stream().filter(Candidate::failed).toList()) {
      boolean newerCompleted = newestCompleted.map(t -> t.isAfter(b.time())).orElse(false);
      assertThat(deleted.contains(b.name())).as("%s deleted", b).isEqualTo(newerCompleted);
    }
    // a second pass over what is left deletes nothing more
    assertThat(Retention.toDelete(kept, keep)).isEmpty();
  }

  @Provide
  Arbitrary<List<Candidate>> histories() {
    var phase =
        Arbitraries.of(
            DhtBackupStatus.COMPLETED,
            DhtBackupStatus.COMPLETED,
            DhtBackupStatus.FAILED,
            DhtBackupStatus.RUNNING,
            DhtBackupStatus.PENDING,
            "");
    return phase
        .list()
        .ofMaxSize(20)
        .map(phases -> {
          List<Candidate> backups = new ArrayList<>();
          for (int i = 0; i < phases.size(); i++) {
            String p = phases.get(i).isEmpty() ? null : phases.get(i);
            backups.add(backup(i, p));
          }
          return backups;
        });
  }
}
