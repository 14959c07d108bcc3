package dev.dht.node.repair;

import java.util.BitSet;
import java.util.HexFormat;

/**
 * The node-to-node repair protocol (behind the cluster secret, like every internal path):
 *
 * <pre>
 * POST /internal/v0/repair/digests?peer=URL&amp;from=N            → 200 {@link Digests} (8 bytes a bucket)
 * POST /internal/v0/repair/entries?peer=URL&amp;from=N[&amp;start=HEX]  body: bucket bitmap
 *                                                          → 200 chunked frames of write ops
 * POST /internal/v0/repair/files?peer=URL&amp;from=N&amp;stream=EPOCH[&amp;start=HEX]
 *                                    → 200 one SST file of records, its last key in a header
 *                                    → 204 no record from start on
 * </pre>
 *
 * Both answer about the keys the answering replica shares with {@code peer} (the asking node) at
 * replication {@code from}; entries come in key order from {@code start} (inclusive), so an
 * interrupted transfer resumes after the last key received. A digests answer carries {@link
 * #REPAIRED_SINCE_HEADER}: when the answering node's last repair run that reached every peer began
 * (wall-clock millis; {@code 0}: never), which bounds the asking node's {@link TombstoneHorizon}.
 *
 * <p>A stream moves whole files instead: the answering node writes the records the asking one will
 * own, from {@code start} on, into an SST file of about {@link #FILE_BYTES} and sends it as it is;
 * the asking node ingests it ({@code Storage#ingestIfNewer}) and asks again after {@link
 * #LAST_KEY_HEADER}. A node that answers 400 to it (an older version) is asked for digests and
 * entries instead.
 */
public final class RepairApi {
  public static final String DIGESTS_PATH = "/internal/v0/repair/digests";
  public static final String ENTRIES_PATH = "/internal/v0/repair/entries";
  public static final String FILES_PATH = "/internal/v0/repair/files";
  public static final String REPAIRED_SINCE_HEADER = "X-Dht-Repaired-Since";
  public static final String LAST_KEY_HEADER = "X-Dht-Last-Key";

  /** A stream's file holds about this many bytes of records (plus one scan batch). */
  public static final long FILE_BYTES = 64L << 20;

  /** No valid file is larger: a receiver refuses one announced beyond it. */
  public static final long MAX_FILE_BYTES = 128L << 20;

  /** A frame carries at most about this many bytes of records (plus one scan batch). */
  public static final int FRAME_BYTES = 1 << 20;

  /** No valid frame is larger: a receiver refuses the stream beyond it. */
  public static final int MAX_FRAME_BYTES = 16 << 20;

  private RepairApi() {}

  public static String hex(byte[] key) {
    return HexFormat.of().formatHex(key);
  }

  public static byte[] unhex(String hex) {
    return HexFormat.of().parseHex(hex);
  }

  public static byte[] bitmap(BitSet buckets) {
    byte[] bytes = new byte[Digests.BUCKETS / 8];
    byte[] set = buckets.toByteArray();
    System.arraycopy(set, 0, bytes, 0, set.length);
    return bytes;
  }

  public static BitSet buckets(byte[] bitmap) {
    if (bitmap.length != Digests.BUCKETS / 8) {
      throw new IllegalArgumentException(
          "a bucket bitmap has " + Digests.BUCKETS / 8 + " bytes, not " + bitmap.length);
    }
    return BitSet.valueOf(bitmap);
  }

  /** The first key after {@code key}: where a transfer resumes. */
  public static byte[] after(byte[] key) {
    return java.util.Arrays.copyOf(key, key.length + 1);
  }
}
