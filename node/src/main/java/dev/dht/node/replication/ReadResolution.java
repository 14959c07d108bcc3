package dev.dht.node.replication;

import dev.dht.node.storage.Record;
import java.util.Arrays;

/**
 * What a read does once its quorum answered, some replicas with their record and some with its
 * version only (a digest: the record's header): answer the newest version, after repairing the
 * replicas behind it; or, when only a digest carries the newest version, first fetch that record
 * from its replica. Versions are compared by timestamp, which a write stamps once: two answers with
 * the same timestamp hold the same version (two full answers that differ in bytes anyway, a
 * collision of node tiebreaks, are ordered as {@link Record#newerThan} orders them). Pure.
 */
public final class ReadResolution {
  private ReadResolution() {}

  /** What to do next. */
  public sealed interface Step permits Answer, Fetch {}

  /**
   * Answer {@code newest} (null: no replica has the key) once the replicas at {@code stale} hold
   * it.
   */
  public record Answer(Record newest, int[] stale) implements Step {}

  /** Read the full record from replica {@code replica}, whose digest is the newest version. */
  public record Fetch(int replica) implements Step {}

  /**
   * The step for the answers so far: {@code answered[i]} says replica {@code i} answered, with
   * {@code records[i]} (null: it has no version), a digest if {@code digest[i]}.
   */
  public static Step resolve(Record[] records, boolean[] answered, boolean[] digest) {
    Record newestSeen = null;
    int newestDigest = -1;
    Record newestFull = null;
    for (int i = 0; i < records.length; i++) {
      Record r = answered[i] ? records[i] : null;
      if (r == null) {
        continue;
      }
      if (newestSeen == null || Long.compareUnsigned(r.timestamp(), newestSeen.timestamp()) > 0) {
        newestSeen = r;
      }
      if (digestOnly(r, digest[i])) {
        if (newestDigest < 0
            || Long.compareUnsigned(r.timestamp(), records[newestDigest].timestamp()) > 0) {
          newestDigest = i;
        }
      } else if (r.newerThan(newestFull)) {
        newestFull = r;
      }
    }
    if (newestSeen == null) {
      return new Answer(null, new int[0]);
    }
    if (newestFull == null || newestFull.timestamp() != newestSeen.timestamp()) {
      return new Fetch(newestDigest);
    }
    int[] stale = new int[records.length];
    int count = 0;
    for (int i = 0; i < records.length; i++) {
      if (answered[i] && behind(newestFull, records[i], digest[i])) {
        stale[count++] = i;
      }
    }
    return new Answer(newestFull, Arrays.copyOf(stale, count));
  }

  /**
   * Whether a replica that answered {@code seen} (to a digest op if {@code digest}) lacks {@code
   * newest}.
   */
  public static boolean behind(Record newest, Record seen, boolean digest) {
    if (seen == null) {
      return true;
    }
    return digestOnly(seen, digest)
        ? Long.compareUnsigned(seen.timestamp(), newest.timestamp()) < 0
        : newest.newerThan(seen);
  }

  /**
   * Whether an answer to a digest op lacks the record: a tombstone's digest is the whole record,
   * and a node that does not know digests answers with the record.
   */
  private static boolean digestOnly(Record answer, boolean askedForDigest) {
    return askedForDigest && !answer.tombstone() && answer.encoded().length == Record.HEADER_BYTES;
  }
}
