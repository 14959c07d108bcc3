package dev.dht.operator.backup;

import dev.dht.contract.backup.VerifyStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * What follows for a {@link DhtBackup}'s verification: whether one is to be started, followed,
 * dropped or left alone ({@link #need}), and the verification status (with when to look again) that
 * a node's answer, or a reason to wait, makes. A verification that could not run or finish is
 * Pending and tried again; Passed and Failed are final for the spec's generation. Pure.
 */
public final class Verifications {
  /** The cluster's spec.backup names another store than the backup's: its nodes cannot read it. */
  public static final String STORE_CHANGED = "StoreChanged";

  /** The node runs a backup or another verification (409). */
  public static final String NODE_BUSY = "NodeBusy";

  /** The node did not answer. */
  public static final String NODE_UNREACHABLE = "NodeUnreachable";

  /** The node refused with something else than 409. */
  public static final String NODE_REFUSED = "NodeRefused";

  /** The node no longer reports this check: it restarted, or checks another backup. */
  public static final String NODE_RESTARTED = "NodeRestarted";

  /** The check could not finish (store unreachable, disk full): says nothing of the backup. */
  public static final String CHECK_ERROR = "CheckError";

  /** The check found the backup damaged. */
  public static final String BACKUP_DAMAGED = "BackupDamaged";

  /** How often a Running verification asks its node how it goes. */
  public static final Duration POLL_PERIOD = Duration.ofSeconds(3);

  /** How often a Pending verification tries again when it waits for the cluster or a node. */
  public static final Duration WAIT_PERIOD = Duration.ofSeconds(10);

  /** How long after a check that could not finish, or a refusal, it is tried again. */
  public static final Duration RETRY_PERIOD = Duration.ofMinutes(1);

  private Verifications() {}

  /** What to do with a backup's verification now. */
  public sealed interface Need {}

  /** Nothing: not asked for, not a completed backup, or done for this generation. */
  public record Nothing() implements Need {}

  /** Ask a node to verify the backup. */
  public record Start() implements Need {}

  /** Ask node {@code node}, which verifies it, how it goes. */
  public record Follow(int node) implements Need {}

  /** Remove a Pending verification no longer asked for. */
  public record Drop() implements Need {}

  /** The verification to show ({@code null}: none), and when to look again (null: not). */
  public record Step(BackupVerification next, Duration after) {}

  /**
   * What {@code backup} needs: a Running verification is followed to its end even if spec.verify
   * was turned off meanwhile (the node runs it anyway); a Pending one no longer asked for is
   * dropped; a completed backup with spec.verify is verified unless a verification of this
   * generation passed or failed.
   */
  public static Need need(DhtBackup backup) {
    var status = backup.getStatus();
    if (status == null || !DhtBackupStatus.COMPLETED.equals(status.getPhase())) {
      return new Nothing();
    }
    var verification = status.getVerification();
    if (verification != null
        && BackupVerification.RUNNING.equals(verification.getPhase())
        && verification.getNode() != null) {
      return new Follow(verification.getNode());
    }
    boolean asked = backup.getSpec() != null && backup.getSpec().verifyRequested();
    if (!asked) {
      return verification != null && BackupVerification.PENDING.equals(verification.getPhase())
          ? new Drop()
          : new Nothing();
    }
    if (verification != null
        && verification.finished()
        && orZero(verification.getObservedGeneration()) >= generation(backup)) {
      return new Nothing();
    }
    return new Start();
  }

  /**
   * Pending for {@code reason}, for {@code backup}'s generation; tried again after {@code after}.
   */
  public static Step waiting(DhtBackup backup, String reason, String message, Duration after) {
    return new Step(pending(generation(backup), reason, message), after);
  }

  /** What node {@code node}'s {@code answer} to the request to verify {@code backup} makes. */
  public static Step started(DhtBackup backup, int node, VerifyAnswer answer, Instant now) {
    long generation = generation(backup);
    return switch (answer) {
      case VerifyAnswer.Started s ->
          new Step(
              BackupVerification.builder()
                  .phase(BackupVerification.RUNNING)
                  .message("node " + node + " verifies the backup")
                  .node(node)
                  .observedGeneration(generation)
                  .startedAt(time(now))
                  .build(),
              POLL_PERIOD);
      case VerifyAnswer.Refused(int code, String text) when code == 409 ->
          new Step(
              pending(generation, NODE_BUSY, "node " + node + " cannot verify it now: " + text),
              WAIT_PERIOD);
      case VerifyAnswer.Refused(int code, String text) ->
          new Step(
              pending(
                  generation,
                  NODE_REFUSED,
                  "node " + node + " refused to verify it (" + code + "): " + text),
              RETRY_PERIOD);
      case VerifyAnswer.Unreachable(String why) ->
          new Step(
              pending(generation, NODE_UNREACHABLE, "node " + node + " did not answer: " + why),
              WAIT_PERIOD);
      case VerifyAnswer.Reported r -> unexpected(generation, node, answer);
      case VerifyAnswer.NoCheck n -> unexpected(generation, node, answer);
    };
  }

  /**
   * What the {@code answer} of the node that verifies backup {@code id} makes of the {@code
   * running} verification. A node that does not answer is asked again how it goes; one that lost
   * the check (it restarted) makes the verification Pending, to be asked for again.
   */
  public static Step followed(BackupVerification running, String id, VerifyAnswer answer) {
    long generation = orZero(running.getObservedGeneration());
    int node = running.getNode();
    return switch (answer) {
      case VerifyAnswer.Reported(var status) when id.equals(status.backup()) ->
          reported(running, status);
      case VerifyAnswer.Reported(var status) ->
          new Step(
              pending(
                  generation,
                  NODE_RESTARTED,
                  "node "
                      + node
                      + " reports a check of backup "
                      + status.backup()
                      + ", not this one: it restarted or was asked for another; asking again"),
              WAIT_PERIOD);
      case VerifyAnswer.NoCheck(String text) ->
          new Step(
              pending(
                  generation,
                  NODE_RESTARTED,
                  "node " + node + " has no check (" + text + "): it restarted; asking again"),
              WAIT_PERIOD);
      case VerifyAnswer.Unreachable(String why) ->
          // stays Running on that node: asking another node would start the check over, and
          // lose its outcome if it finished meanwhile; a node that restarted says so (NoCheck)
          new Step(
              running.toBuilder()
                  .reason(NODE_UNREACHABLE)
                  .message("node " + node + " did not answer (" + why + "); asking it again")
                  .build(),
              WAIT_PERIOD);
      case VerifyAnswer.Refused(int code, String text) ->
          new Step(
              pending(
                  generation,
                  NODE_REFUSED,
                  "node " + node + " answered " + code + ": " + text + "; asking again"),
              WAIT_PERIOD);
      case VerifyAnswer.Started s -> new Step(running, POLL_PERIOD);
    };
  }

  /** The node's report on this backup's check: progress, Passed, Failed, or Pending to retry. */
  private static Step reported(BackupVerification running, VerifyStatus status) {
    var progressed =
        running.toBuilder()
            .reason(null)
            .startedAt(
                status.startedMillis() > 0
                    ? millis(status.startedMillis())
                    : running.getStartedAt())
            .membersChecked(status.membersChecked())
            .membersTotal(status.membersTotal())
            .filesChecked(status.filesChecked())
            .bytesDownloaded(status.bytesDownloaded())
            .records(status.records());
    String node = "node " + running.getNode();
    String completedAt = status.finishedMillis() > 0 ? millis(status.finishedMillis()) : null;
    return switch (status.phase()) {
      case VerifyStatus.RUNNING ->
          new Step(
              progressed
                  .message(
                      node
                          + " verifies the backup: "
                          + status.membersChecked()
                          + " of "
                          + status.membersTotal()
                          + " members checked")
                  .build(),
              POLL_PERIOD);
      case VerifyStatus.PASSED ->
          new Step(
              progressed
                  .phase(BackupVerification.PASSED)
                  .completedAt(completedAt)
                  .message(
                      node
                          + " read back "
                          + status.records()
                          + " records of "
                          + status.membersTotal()
                          + " members ("
                          + status.filesChecked()
                          + " files, "
                          + status.bytesDownloaded()
                          + " bytes): every file as uploaded, every checkpoint readable")
                  .build(),
              null);
      case VerifyStatus.FAILED ->
          new Step(
              progressed
                  .phase(BackupVerification.FAILED)
                  .reason(BACKUP_DAMAGED)
                  .completedAt(completedAt)
                  .message(
                      Objects.requireNonNullElse(
                          status.reason(), node + " found the backup damaged"))
                  .build(),
              null);
      default -> // error, or a phase this operator does not know: the check says nothing
          new Step(
              pending(
                  orZero(running.getObservedGeneration()),
                  CHECK_ERROR,
                  node
                      + " could not finish the check ("
                      + status.phase()
                      + "): "
                      + status.reason()
                      + "; trying again in "
                      + RETRY_PERIOD.toSeconds()
                      + " s"),
              RETRY_PERIOD);
    };
  }

  private static Step unexpected(long generation, int node, VerifyAnswer answer) {
    return new Step(
        pending(generation, NODE_REFUSED, "node " + node + " answered unexpectedly: " + answer),
        RETRY_PERIOD);
  }

  private static BackupVerification pending(long generation, String reason, String message) {
    return BackupVerification.builder()
        .phase(BackupVerification.PENDING)
        .reason(reason)
        .message(message)
        .observedGeneration(generation)
        .build();
  }

  private static long generation(DhtBackup backup) {
    return orZero(backup.getMetadata() == null ? null : backup.getMetadata().getGeneration());
  }

  private static long orZero(Long value) {
    return value == null ? 0 : value;
  }

  private static String millis(long epochMillis) {
    return time(Instant.ofEpochMilli(epochMillis));
  }

  private static String time(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MILLIS).toString();
  }
}
