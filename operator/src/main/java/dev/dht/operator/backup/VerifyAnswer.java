package dev.dht.operator.backup;

import dev.dht.contract.backup.VerifyStatus;

/**
 * What the node that verifies a backup said: to the request to verify it ({@code POST
 * /v0/admin/backup/verify}: started, refused) or to the question how it goes ({@code GET}: its
 * latest check, none), or nothing.
 */
public sealed interface VerifyAnswer {
  /** It started the check, or runs it already (202). */
  record Started() implements VerifyAnswer {}

  /** It refused to start it: {@code status} 409 when it cannot now, and {@code text} why. */
  record Refused(int status, String text) implements VerifyAnswer {}

  /** It answered with its latest check (which may be of another backup). */
  record Reported(VerifyStatus status) implements VerifyAnswer {}

  /** It has made no check since it started (404); {@code text} is its answer. */
  record NoCheck(String text) implements VerifyAnswer {}

  /** It did not answer (no pod, refused, timed out, another status); {@code why} says how. */
  record Unreachable(String why) implements VerifyAnswer {}
}
