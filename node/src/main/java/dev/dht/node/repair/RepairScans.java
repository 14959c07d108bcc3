package dev.dht.node.repair;

import dev.dht.node.replication.ReplicaOp;
import dev.dht.node.storage.RangeCursor;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.SstWriter;
import dev.dht.node.storage.Storage;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The full scans of repair, over every record of this node's data (tombstones included). Each
 * blocks for as long as the scan takes: run them on a background worker, never on an event loop.
 * Tombstones past their grace period take no part: they are being purged everywhere.
 */
public final class RepairScans {
  static final int SCAN_BATCH = 4096;
  private static final int SCAN_BATCH_BYTES = 4 << 20;
  private static final byte[] FIRST_KEY = new byte[0];

  private RepairScans() {}

  /** A scan given up because whoever asked for it is gone. */
  public static final class AbandonedException extends RuntimeException {
    AbandonedException() {
      super("the scan was abandoned: its peer is gone", null, false, false);
    }
  }

  /** The digests of what this replica holds of {@code keys}. */
  public static Digests digests(Storage storage, SharedKeys keys) {
    return digests(storage, keys, () -> false);
  }

  /**
   * The digests of what this replica holds of {@code keys}; stops with an {@link
   * AbandonedException} as soon as {@code abandoned} says so (checked every batch), so that a scan
   * for a peer that gave up does not hold the one background worker.
   */
  public static Digests digests(Storage storage, SharedKeys keys, BooleanSupplier abandoned) {
    Digests digests = new Digests();
    long horizon = storage.purgeHorizon();
    try (RangeCursor cursor = storage.scan(FIRST_KEY)) {
      for (List<RangeCursor.Entry> batch = cursor.next(SCAN_BATCH, SCAN_BATCH_BYTES);
          !batch.isEmpty();
          batch = cursor.next(SCAN_BATCH, SCAN_BATCH_BYTES)) {
        if (abandoned.getAsBoolean()) {
          throw new AbandonedException();
        }
        for (RangeCursor.Entry e : batch) {
          if (!purgeable(e.record(), horizon) && keys.contains(e.key())) {
            digests.add(e.key(), e.value());
          }
        }
      }
    }
    return digests;
  }

  /** Deletes every tombstone past its grace period; returns how many. */
  public static long purgeTombstones(Storage storage) {
    long purged = 0;
    long horizon = storage.purgeHorizon();
    try (RangeCursor cursor = storage.scan(FIRST_KEY)) {
      for (List<RangeCursor.Entry> batch = cursor.next(SCAN_BATCH, SCAN_BATCH_BYTES);
          !batch.isEmpty();
          batch = cursor.next(SCAN_BATCH, SCAN_BATCH_BYTES)) {
        List<byte[]> keys = new ArrayList<>();
        List<Record> tombstones = new ArrayList<>();
        for (RangeCursor.Entry e : batch) {
          Record record = e.record();
          if (purgeable(record, horizon)) {
            keys.add(e.key());
            tombstones.add(record);
          }
        }
        if (!keys.isEmpty()) {
          purged += storage.purge(keys, tombstones);
        }
      }
    }
    return purged;
  }

  private static boolean purgeable(Record record, long horizon) {
    return record.tombstone() && record.timestamp() < horizon;
  }

  /**
   * Writes the records of {@code keys} from {@code start} on, in key order, into a new SST file,
   * stopping after about {@code maxBytes} of records; returns the last key written, or null if
   * there was none (then no file is left). Gives up with an {@link AbandonedException} as soon as
   * {@code abandoned} says so.
   */
  public static byte[] writeFile(
      Storage storage,
      SharedKeys keys,
      byte[] start,
      long maxBytes,
      Path file,
      BooleanSupplier abandoned) {
    if (keys.nothingHandedOver()) {
      return null;
    }
    long horizon = storage.purgeHorizon();
    byte[] last = null;
    long bytes = 0;
    SstWriter writer = null;
    boolean complete = false;
    try (RangeCursor cursor = storage.scan(start)) {
      while (bytes < maxBytes) {
        List<RangeCursor.Entry> batch = cursor.next(SCAN_BATCH, SCAN_BATCH_BYTES);
        if (batch.isEmpty()) {
          break;
        }
        if (abandoned.getAsBoolean()) {
          throw new AbandonedException();
        }
        for (RangeCursor.Entry e : batch) {
          if (keys.contains(e.key()) && !purgeable(e.record(), horizon)) {
            if (writer == null) {
              writer = storage.sstWriter(file);
            }
            writer.put(e.key(), e.value());
            last = e.key();
            bytes += e.key().length + e.value().length;
          }
        }
      }
      if (writer != null) {
        writer.finish();
      }
      complete = true;
      return last;
    } finally {
      if (writer != null) {
        writer.close();
        if (!complete) {
          deleteQuietly(file);
        }
      }
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // the transfer directory is emptied at the next start
    }
  }

  /**
   * The records of some buckets of the keys shared with a peer, in key order from a start key, cut
   * into {@link RepairFrames}. Owns its cursor.
   */
  public static final class EntryScan implements AutoCloseable {
    private final RangeCursor cursor;
    private final SharedKeys keys;
    private final BitSet buckets;
    private final long horizon;

    public EntryScan(Storage storage, SharedKeys keys, BitSet buckets, byte[] start) {
      this.cursor = storage.scan(start);
      this.keys = keys;
      this.buckets = buckets;
      this.horizon = storage.purgeHorizon();
    }

    /** The next frame, of about {@code maxBytes} at most; null once the scan is over. */
    public Buffer nextFrame(int maxBytes) {
      List<ReplicaOp> ops = new ArrayList<>();
      int bytes = 0;
      while (bytes < maxBytes) {
        List<RangeCursor.Entry> batch = cursor.next(SCAN_BATCH, SCAN_BATCH_BYTES);
        if (batch.isEmpty()) {
          break;
        }
        for (RangeCursor.Entry e : batch) {
          Record record = e.record();
          if (buckets.get(Digests.bucket(e.key()))
              && !purgeable(record, horizon)
              && keys.contains(e.key())) {
            ops.add(ReplicaOp.write(e.key(), record));
            bytes += e.key().length + e.value().length + 9;
          }
        }
      }
      if (ops.isEmpty()) {
        return null;
      }
      return RepairFrames.encode(ops);
    }

    @Override
    public void close() {
      cursor.close();
    }
  }
}
