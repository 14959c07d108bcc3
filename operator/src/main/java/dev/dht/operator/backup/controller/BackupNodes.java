package dev.dht.operator.backup.controller;

import dev.dht.contract.backup.BackupSummary;
import dev.dht.contract.backup.NodeBackupStatus;
import dev.dht.contract.backup.VerifyStatus;
import dev.dht.operator.backup.NodeAnswer;
import dev.dht.operator.backup.VerifyAnswer;
import dev.dht.operator.bounded.BoundedHttp;
import dev.dht.operator.bounded.ReadLimit;
import dev.dht.operator.scaling.NodeAccess;
import dev.dht.operator.scaling.NodeAdmin;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The backup admin calls to a cluster's nodes, on their admin port through {@link NodeAdmin} (the
 * cluster secret, the cluster's CAs): start a backup on every member, ask each for its part, seal
 * it on one, delete it through one, verify it on one and ask that one how the check goes. All
 * members are asked at once; every answer is bounded in size and time.
 */
final class BackupNodes {
  /** A node's answer to a start or a refusal: a line of text. */
  static final ReadLimit ANSWER =
      new ReadLimit("a node's answer to a backup request", 16 * 1024, Duration.ofSeconds(10));

  /** {@code GET /v0/admin/backup}: one node's part, a few hundred bytes. */
  static final ReadLimit PART =
      new ReadLimit("a node's backup status", 64 * 1024, Duration.ofSeconds(5));

  /**
   * {@code POST backup/seal}: the node checks the size of every file of the backup in the store
   * before it writes the summary (which lists the members' URLs), so minutes for a large backup.
   */
  static final ReadLimit SEAL =
      new ReadLimit("a node's backup summary", 1024 * 1024, Duration.ofMinutes(5));

  /** {@code POST backup/delete}: the node deletes the backup's objects one by one. */
  static final ReadLimit DELETE =
      new ReadLimit("a node's answer to a backup deletion", 16 * 1024, Duration.ofMinutes(2));

  /** What a node's text may put into the status, at most. */
  static final int MAX_TEXT = 300;

  private static final Executor POOL = Executors.newVirtualThreadPerTaskExecutor();

  private final NodeAdmin admin;

  BackupNodes(NodeAdmin admin) {
    this.admin = admin;
  }

  /** A node's answer that the backup uses: success with its body, a refusal, or none. */
  sealed interface Outcome<T> {}

  record Done<T>(T value) implements Outcome<T> {}

  /** The node answered {@code status} with {@code text} (409: it cannot, and says why). */
  record Refused<T>(int status, String text) implements Outcome<T> {}

  record NotReached<T>(String why) implements Outcome<T> {}

  /**
   * Asks every member to take its part of backup {@code id}: by ordinal, null for a node that
   * started (202), else why not.
   */
  Map<Integer, String> start(List<String> members, NodeAccess access, String id) {
    return forEach(
        members,
        url ->
            switch (call(url, "backup?id=" + query(id), access, ANSWER, true, t -> t, 202)) {
              case Done<String> d -> null;
              case Refused<String>(int status, String text) -> status + ": " + text;
              case NotReached<String>(String why) -> "not reached (" + why + ")";
            });
  }

  /** Every member's part of its last backup, by ordinal. */
  Map<Integer, NodeAnswer> parts(List<String> members, NodeAccess access) {
    return forEach(
        members,
        url ->
            switch (call(url, "backup", access, PART, false, NodeBackupStatus::parse, 200)) {
              case Done<NodeBackupStatus>(var status) -> new NodeAnswer.Reported(status);
              case Refused<NodeBackupStatus>(int status, String text) when status == 404 ->
                  new NodeAnswer.NoBackup(text);
              case Refused<NodeBackupStatus>(int status, String text) ->
                  new NodeAnswer.Unreachable("answered " + status + ": " + text);
              case NotReached<NodeBackupStatus>(String why) -> new NodeAnswer.Unreachable(why);
            });
  }

  /** Asks the node at {@code url} to verify backup {@code id}: started (202), refused, or none. */
  VerifyAnswer verify(String url, NodeAccess access, String id) {
    return switch (call(url, "backup/verify?id=" + query(id), access, ANSWER, true, t -> t, 202)) {
      case Done<String> d -> new VerifyAnswer.Started();
      case Refused<String>(int status, String text) -> new VerifyAnswer.Refused(status, text);
      case NotReached<String>(String why) -> new VerifyAnswer.Unreachable(why);
    };
  }

  /** The latest check of the node at {@code url}: reported, none (404), or no answer. */
  VerifyAnswer verification(String url, NodeAccess access) {
    return switch (call(url, "backup/verify", access, PART, false, VerifyStatus::parse, 200)) {
      case Done<VerifyStatus>(var status) -> new VerifyAnswer.Reported(status);
      case Refused<VerifyStatus>(int status, String text) when status == 404 ->
          new VerifyAnswer.NoCheck(text);
      case Refused<VerifyStatus>(int status, String text) ->
          new VerifyAnswer.Unreachable("answered " + status + ": " + text);
      case NotReached<VerifyStatus>(String why) -> new VerifyAnswer.Unreachable(why);
    };
  }

  /** Asks the node at {@code url} to seal backup {@code id}: its summary, or why not. */
  Outcome<BackupSummary> seal(String url, NodeAccess access, String id) {
    return call(url, "backup/seal?id=" + query(id), access, SEAL, true, BackupSummary::parse, 200);
  }

  /** Asks the node at {@code url} to delete backup {@code id} from the store. */
  Outcome<String> delete(String url, NodeAccess access, String id) {
    return call(url, "backup/delete?id=" + query(id), access, DELETE, true, t -> t, 200);
  }

  private <T> Outcome<T> call(
      String url,
      String what,
      NodeAccess access,
      ReadLimit limit,
      boolean post,
      Function<String, T> parse,
      int success) {
    try {
      BoundedHttp.Answer answer =
          post ? admin.post(url, what, access, limit) : admin.get(url, what, access, limit);
      String text = answer.text();
      if (answer.status() != success) {
        return new Refused<>(answer.status(), shortened(text));
      }
      try {
        return new Done<>(parse.apply(text));
      } catch (RuntimeException e) { // not the contract's JSON: a node of another version
        return new Refused<>(answer.status(), "unreadable answer: " + shortened(e.getMessage()));
      }
    } catch (IOException | RuntimeException e) { // a bad CA bundle, a bad URL
      return new NotReached<>(shortened(String.valueOf(e.getMessage())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new NotReached<>("interrupted");
    }
  }

  private static <T> Map<Integer, T> forEach(List<String> members, Function<String, T> ask) {
    Map<Integer, CompletableFuture<T>> asked = new TreeMap<>();
    for (int i = 0; i < members.size(); i++) {
      String url = members.get(i);
      asked.put(i, CompletableFuture.supplyAsync(() -> ask.apply(url), POOL));
    }
    Map<Integer, T> answers = new TreeMap<>();
    asked.forEach((ordinal, answer) -> answers.put(ordinal, answer.join()));
    return answers;
  }

  private static String query(String id) {
    return URLEncoder.encode(id, StandardCharsets.UTF_8);
  }

  static String shortened(String text) {
    String line = text == null ? "" : text.strip().lines().findFirst().orElse("");
    return line.length() <= MAX_TEXT ? line : line.substring(0, MAX_TEXT) + "...";
  }
}
