package dev.dht.operator.backup.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dht.operator.TestCrds;
import dev.dht.operator.backup.BackupSpec;
import dev.dht.operator.backup.DhtBackup;
import dev.dht.operator.backup.DhtBackupSpec;
import dev.dht.operator.backup.DhtBackupStatus;
import dev.dht.operator.backup.DhtScheduledBackup;
import dev.dht.operator.backup.DhtScheduledBackupSpec;
import dev.dht.operator.backup.DhtScheduledBackupStatus;
import dev.dht.operator.backup.ObjectStoreSpec;
import dev.dht.operator.backup.ScheduledBackups;
import dev.dht.operator.cluster.DhtCluster;
import dev.dht.operator.cluster.DhtClusterSpec;
import dev.dht.operator.rbac.ChartRbacOperator;
import dev.dht.operator.users.DhtUser;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The DhtScheduledBackup reconciler against a real kube-apiserver (k8s-local {@code ensure.sh
 * api}), without nodes. <b>The test plays the DhtBackup controller's part</b>: it writes the
 * DhtBackups' status (Running, Completed, Failed) itself, because that controller is tested
 * elsewhere and is not registered here; the clusters are DhtCluster objects without a cluster
 * operator. The reconciler's clock is the real one plus an offset the test can move forward, so
 * that a later time of a schedule is due without waiting for it.
 */
class DhtScheduledBackupOperatorTest {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  static {
    TestCrds.forceApply(DhtScheduledBackup.class, DhtBackup.class, DhtCluster.class, DhtUser.class);
  }

  /** How far the reconciler's clock is ahead of the real one. */
  static final AtomicReference<Duration> AHEAD = new AtomicReference<>(Duration.ZERO);

  static final Clock CLOCK =
      new Clock() {
        @Override
        public ZoneId getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return Instant.now().plus(AHEAD.get());
        }
      };

  @RegisterExtension
  static final LocallyRunOperatorExtension OPERATOR =
      ChartRbacOperator.builder()
          .withReconciler(new DhtScheduledBackupReconciler(CLOCK, UnaryOperator.identity()))
          .withAdditionalCustomResourceDefinition(DhtBackup.class)
          .withAdditionalCustomResourceDefinition(DhtCluster.class)
          .build();

  static KubernetesClient client;
  static String ns;

  @BeforeAll
  static void connect() {
    client = OPERATOR.getInfrastructureKubernetesClient();
    ns = OPERATOR.getNamespace();
    createCluster("alpha");
    createCluster("beta");
  }

  /**
   * A schedule of every minute makes a DhtBackup at its next minute, named and labelled after it,
   * owned by nothing, with the schedule's spec.verify; a time due while that backup runs waits for
   * it, and is taken as soon as it failed; once the next completed, retention (keep 1) deletes the
   * failed one.
   */
  @Test
  void everyMinuteABackupAndAFailedOneDoesNotBlockTheNext() {
    var minutely = schedule("minutely", "alpha", "* * * * *", 1);
    minutely.getSpec().setVerify(true);
    client.resource(minutely).create();

    var first = awaitBackups("minutely", 1, Duration.ofSeconds(75)).getFirst();
    Instant time =
        Instant.parse(first.getMetadata().getAnnotations().get(ScheduledBackups.TIME_ANNOTATION));
    assertThat(time.getEpochSecond() % 60).isZero();
    assertThat(first.getMetadata().getName())
        .isEqualTo(
            "minutely-"
                + DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
                    .withZone(ZoneOffset.UTC)
                    .format(time));
    assertThat(first.getMetadata().getLabels()).containsEntry(ScheduledBackups.LABEL, "minutely");
    assertThat(first.getMetadata().getOwnerReferences())
        .as("deleting the schedule must not delete its backups (and so their data)")
        .isEmpty();
    assertThat(first.getSpec().getCluster()).isEqualTo("alpha");
    assertThat(first.getSpec().getVerify()).as("the schedule's spec.verify, copied").isTrue();
    var status =
        awaitStatus("minutely", s -> first.getMetadata().getName().equals(s.getLastBackup()));
    assertThat(status.getLastScheduleTime()).isEqualTo(time.toString());
    assertThat(Instant.parse(status.getNextScheduleTime())).isAfter(time);
    awaitEvent("minutely", "BackupCreated", "Normal");

    // later times come due while the first runs: they wait for it
    AHEAD.set(Duration.ofMinutes(3));
    setPhase(first.getMetadata().getName(), DhtBackupStatus.RUNNING);
    var waiting =
        awaitStatus(
            "minutely",
            s ->
                s.getMessage() != null
                    && s.getMessage().contains("waits for " + first.getMetadata().getName()));
    assertThat(waiting.getMessage()).contains("(Running)");
    assertThat(backups("minutely")).hasSize(1);

    // it fails: the newest time due is taken at once
    setPhase(first.getMetadata().getName(), DhtBackupStatus.FAILED);
    var two = awaitBackups("minutely", 2, TIMEOUT);
    var second =
        two.stream()
            .filter(b -> !b.getMetadata().getName().equals(first.getMetadata().getName()))
            .findFirst()
            .orElseThrow();
    Instant secondTime =
        Instant.parse(second.getMetadata().getAnnotations().get(ScheduledBackups.TIME_ANNOTATION));
    assertThat(secondTime).isAfter(time.plus(Duration.ofMinutes(2)));

    // it completes: the failed one, older, goes; the completed one is the last success
    setPhase(second.getMetadata().getName(), DhtBackupStatus.COMPLETED);
    Awaitility.await("the failed backup deleted")
        .atMost(TIMEOUT)
        .until(() ->
            backups("minutely").stream()
                .noneMatch(b -> b.getMetadata().getName().equals(first.getMetadata().getName())));
    var after =
        awaitStatus(
            "minutely", s -> second.getMetadata().getName().equals(s.getLastSuccessfulBackup()));
    assertThat(after.getLastSuccessfulTime()).isEqualTo(STOPPED_AT);
    assertThat(after.getCollectPending())
        .as("a collection is owed; it cannot be made: the cluster has no members (no nodes here)")
        .isTrue();
    awaitEvent("minutely", "BackupsDeleted", "Normal");
    awaitEvent("minutely", "CollectFailed", "Warning");
  }

  /**
   * Retention over a history the test writes (a yearly schedule makes nothing meanwhile): with keep
   * 2, the two newest completed backups stay, an older completed one and a failure before them go,
   * a running backup and a failure after the newest completed stay; backups of another schedule and
   * without the label are not the schedule's.
   */
  @Test
  void retentionKeepsTheNewestCompletedAndLeavesOthersAlone() {
    createSchedule("nightly", "beta", "@yearly", 2);
    Instant t0 = Instant.parse("2025-01-01T00:00:00Z");
    String[] phases = {
      DhtBackupStatus.COMPLETED,
      DhtBackupStatus.FAILED,
      DhtBackupStatus.COMPLETED,
      DhtBackupStatus.COMPLETED,
      DhtBackupStatus.RUNNING,
      DhtBackupStatus.FAILED
    };
    for (int day = 0; day < phases.length; day++) {
      createBackup(
          ScheduledBackups.name("nightly", t0.plus(Duration.ofDays(day))),
          "nightly",
          t0.plus(Duration.ofDays(day)));
    }
    createBackup(ScheduledBackups.name("other", t0), "other", t0);
    createBackup("by-hand", null, null);
    setPhase(ScheduledBackups.name("other", t0), DhtBackupStatus.COMPLETED);
    setPhase("by-hand", DhtBackupStatus.COMPLETED);
    for (int day = 0; day < phases.length; day++) { // in time order, as the backups would end
      setPhase(ScheduledBackups.name("nightly", t0.plus(Duration.ofDays(day))), phases[day]);
    }

    List<String> kept =
        List.of(
            "nightly-20250103000000",
            "nightly-20250104000000",
            "nightly-20250105000000",
            "nightly-20250106000000");
    Awaitility.await("retention")
        .atMost(TIMEOUT)
        .until(() -> names(backups("nightly")).equals(kept));
    var status =
        awaitStatus("nightly", s -> "nightly-20250104000000".equals(s.getLastSuccessfulBackup()));
    assertThat(status.getCollectPending()).as("a backup of the cluster runs").isTrue();
    assertThat(client.resources(DhtBackup.class).inNamespace(ns).withName("by-hand").get())
        .isNotNull();
    assertThat(
            client
                .resources(DhtBackup.class)
                .inNamespace(ns)
                .withName("other-20250101000000")
                .get())
        .isNotNull();
  }

  @Test
  void aBadScheduleOrAMissingClusterMakesNoBackupAndSaysWhy() {
    createSchedule("broken", "61 * * * *", 1);
    var status = awaitStatus("broken", s -> s.getMessage() != null);
    assertThat(status.getMessage())
        .isEqualTo(
            "spec.schedule: \"61 * * * *\": the minute field's \"61\" is not valid: values must be"
                + " within 0-59");
    assertThat(status.getNextScheduleTime()).isNull();
    assertThat(awaitEvent("broken", "InvalidSchedule", "Warning").getMessage())
        .isEqualTo(status.getMessage());

    var orphan = new DhtScheduledBackup();
    orphan.setMetadata(new ObjectMetaBuilder().withName("orphan").withNamespace(ns).build());
    orphan.setSpec(
        DhtScheduledBackupSpec.builder().cluster("nowhere").schedule("@hourly").keep(1).build());
    client.resource(orphan).create();
    var missing = awaitStatus("orphan", s -> s.getMessage() != null);
    assertThat(missing.getMessage())
        .isEqualTo("DhtCluster nowhere does not exist in this namespace");
    awaitEvent("orphan", "ClusterNotUsable", "Warning");
  }

  static final String STOPPED_AT = "2025-06-01T12:00:00Z";

  private static void createCluster(String name) {
    var cluster = new DhtCluster();
    cluster.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    var spec = new DhtClusterSpec();
    spec.setBackup(
        BackupSpec.builder()
            .objectStore(ObjectStoreSpec.builder().bucket("backups").build())
            .build());
    cluster.setSpec(spec);
    client.resource(cluster).create();
  }

  private static void createSchedule(String name, String schedule, int keep) {
    createSchedule(name, "alpha", schedule, keep);
  }

  private static void createSchedule(String name, String cluster, String schedule, int keep) {
    client.resource(schedule(name, cluster, schedule, keep)).create();
  }

  private static DhtScheduledBackup schedule(
      String name, String cluster, String schedule, int keep) {
    var scheduled = new DhtScheduledBackup();
    scheduled.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns).build());
    scheduled.setSpec(
        DhtScheduledBackupSpec.builder().cluster(cluster).schedule(schedule).keep(keep).build());
    return scheduled;
  }

  /**
   * A backup of cluster beta as the schedule {@code schedule} would have made it (none: made by
   * hand).
   */
  private static void createBackup(String name, String schedule, Instant time) {
    var backup = new DhtBackup();
    var meta = new ObjectMetaBuilder().withName(name).withNamespace(ns);
    if (schedule != null) {
      meta.withLabels(Map.of(ScheduledBackups.LABEL, schedule))
          .withAnnotations(Map.of(ScheduledBackups.TIME_ANNOTATION, time.toString()));
    }
    backup.setMetadata(meta.build());
    backup.setSpec(DhtBackupSpec.builder().cluster("beta").build());
    client.resource(backup).create();
  }

  /** What the DhtBackup controller would write (see the class comment). */
  private static void setPhase(String backup, String phase) {
    var current = client.resources(DhtBackup.class).inNamespace(ns).withName(backup).get();
    var status = DhtBackupStatus.builder().phase(phase).backupId(backup);
    if (DhtBackupStatus.COMPLETED.equals(phase) || DhtBackupStatus.FAILED.equals(phase)) {
      status.stoppedAt(STOPPED_AT);
    }
    current.setStatus(status.build());
    client.resource(current).updateStatus();
  }

  private static List<DhtBackup> backups(String schedule) {
    return client
        .resources(DhtBackup.class)
        .inNamespace(ns)
        .withLabel(ScheduledBackups.LABEL, schedule)
        .list()
        .getItems();
  }

  private static List<String> names(List<DhtBackup> backups) {
    return backups.stream().map(b -> b.getMetadata().getName()).sorted().toList();
  }

  private static List<DhtBackup> awaitBackups(String schedule, int count, Duration within) {
    return Awaitility.await(count + " backups of " + schedule)
        .atMost(within)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> backups(schedule), list -> list.size() == count);
  }

  private static DhtScheduledBackupStatus awaitStatus(
      String name, Predicate<DhtScheduledBackupStatus> wanted) {
    return Awaitility.await("status of " + name)
        .atMost(TIMEOUT)
        .until(
            () -> {
              var s =
                  client.resources(DhtScheduledBackup.class).inNamespace(ns).withName(name).get();
              return s == null ? null : s.getStatus();
            },
            s -> s != null && wanted.test(s));
  }

  private static Event awaitEvent(String name, String reason, String type) {
    return Awaitility.await("event " + reason + " of " + name)
        .atMost(TIMEOUT)
        .until(
            () ->
                client.v1().events().inNamespace(ns).list().getItems().stream()
                    .filter(e -> name.equals(e.getInvolvedObject().getName()))
                    .filter(e -> reason.equals(e.getReason()) && type.equals(e.getType()))
                    .findFirst()
                    .orElse(null),
            e -> e != null);
  }
}
