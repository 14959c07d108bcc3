package dev.dht.node.chaos;

import dev.dht.node.chaos.History.Kind;
import dev.dht.node.chaos.History.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a {@link History} and the final state of each key (read at full quorum once the cluster
 * healed) against what a client was promised. Pure.
 *
 * <ul>
 *   <li><b>lost</b>: a key whose last acknowledged write is missing from the final state (an older
 *       value or nothing), unless a later mutation that failed may have applied;
 *   <li><b>stale</b>: a read that returned something older than a write acknowledged before the
 *       read began;
 *   <li><b>resurrected</b>: a value read (or left in the end) although its key's delete was
 *       acknowledged later and before the read began.
 * </ul>
 *
 * A failed mutation (an error or a timeout) may or may not have applied, at any time after it began
 * (as in Jepsen's histories: a request a paused node reads after its client gave up is stamped, and
 * wins, when it is handled): a later read may see it, or not.
 */
final class HistoryCheck {
  /** The counts a run is judged by; every one but {@code operations} and {@code acknowledged}. */
  record Verdict(
      long operations,
      long acknowledged,
      long lost,
      long stale,
      long resurrected,
      List<String> examples) {
    boolean clean() {
      return lost == 0 && stale == 0 && resurrected == 0;
    }
  }

  private HistoryCheck() {}

  /** {@code finalState}: each key's value number as read at the end ({@link History#ABSENT}). */
  static Verdict check(List<Op> ops, Map<String, Long> finalState) {
    Map<String, List<Op>> mutations = new HashMap<>();
    long acknowledged = 0;
    for (Op op : ops) {
      if (op.kind() != Kind.READ) {
        mutations.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        acknowledged += op.ok() ? 1 : 0;
      }
    }
    long stale = 0;
    long resurrected = 0;
    List<String> examples = new ArrayList<>();
    for (Op read : ops) {
      if (read.kind() != Kind.READ || !read.ok()) {
        continue;
      }
      List<Op> ofKey = mutations.getOrDefault(read.key(), List.of());
      Op before = lastAcknowledged(ofKey, read.startNanos());
      Judgement judgement = judge(before, read.seq(), ofKey, read.endNanos());
      switch (judgement) {
        case STALE -> stale++;
        case RESURRECTED -> resurrected++;
        case FINE -> {}
      }
      example(examples, judgement, read.key(), "a read", read.seq(), before);
    }
    long lost = 0;
    for (var e : mutations.entrySet()) {
      Op last = lastAcknowledged(e.getValue(), Long.MAX_VALUE);
      long seen = finalState.getOrDefault(e.getKey(), History.ABSENT);
      Judgement judgement = judge(last, seen, e.getValue(), Long.MAX_VALUE);
      switch (judgement) {
        case STALE -> lost++;
        case RESURRECTED -> resurrected++;
        case FINE -> {}
      }
      example(examples, judgement, e.getKey(), "the end", seen, last);
    }
    return new Verdict(ops.size(), acknowledged, lost, stale, resurrected, examples);
  }

  /** Describes a few of the problems, for whoever reads the table. */
  private static void example(
      List<String> examples, Judgement judgement, String key, String what, long seen, Op before) {
    if (judgement != Judgement.FINE && examples.size() < 5) {
      examples.add(
          key
              + ": "
              + what
              + " saw "
              + (seen == History.ABSENT ? "nothing" : "value " + seen)
              + " after "
              + before.kind().name().toLowerCase(java.util.Locale.ROOT)
              + " "
              + before.seq()
              + " was acknowledged");
    }
  }

  private enum Judgement {
    FINE,
    STALE,
    RESURRECTED
  }

  /**
   * Whether seeing {@code seen} is fine when {@code before} was the last mutation acknowledged
   * before looking, and mutations that began before {@code lookEnded} may have applied.
   */
  private static Judgement judge(Op before, long seen, List<Op> ofKey, long lookEnded) {
    if (before == null) {
      return Judgement.FINE; // nothing promised yet
    }
    if (seen == History.ABSENT) {
      boolean deleted =
          before.kind() == Kind.DELETE
              || ofKey.stream()
                  .anyMatch(m ->
                      m.kind() == Kind.DELETE
                          && (m.seq() > before.seq() || !m.ok())
                          && m.startNanos() < lookEnded);
      return deleted ? Judgement.FINE : Judgement.STALE;
    }
    if (seen >= before.seq()) {
      return Judgement.FINE; // that write, or a later one (acknowledged or not) that applied
    }
    boolean failedWrite =
        ofKey.stream().anyMatch(m -> m.kind() == Kind.WRITE && m.seq() == seen && !m.ok());
    if (failedWrite) {
      return Judgement.FINE; // it began before: it may have applied last
    }
    return before.kind() == Kind.DELETE ? Judgement.RESURRECTED : Judgement.STALE;
  }

  /** The mutation with the highest number acknowledged before {@code nanos}; null if none. */
  private static Op lastAcknowledged(List<Op> ofKey, long nanos) {
    Op last = null;
    for (Op m : ofKey) {
      if (m.ok() && m.endNanos() < nanos && (last == null || m.seq() > last.seq())) {
        last = m;
      }
    }
    return last;
  }
}
