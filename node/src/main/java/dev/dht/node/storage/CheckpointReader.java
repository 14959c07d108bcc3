package dev.dht.node.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Reads the data records of a checkpoint (another node's database, restored from a backup), opened
 * read-only in a directory of its own: the owner of that database's native objects for the call's
 * duration. Blocks: run it on a worker.
 */
public final class CheckpointReader {
  /** Receives the records in batches of keys and records, in key order. */
  public interface Batches {
    void accept(List<byte[]> keys, List<Record> records);
  }

  private CheckpointReader() {}

  /** A batch ends at this many bytes of keys and values, whatever its count. */
  static final int BATCH_BYTES = 4 << 20;

  /**
   * Every data record in {@code dir}, tombstones included, at most {@code batchSize} (and about
   * {@link #BATCH_BYTES}) at a time.
   */
  public static long readData(Path dir, int batchSize, Batches batches) {
    var batch =
        new Object() {
          List<byte[]> keys = new ArrayList<>(batchSize);
          List<Record> records = new ArrayList<>(batchSize);
          long bytes;

          void flush() {
            batches.accept(keys, records);
            keys = new ArrayList<>(batchSize);
            records = new ArrayList<>(batchSize);
            bytes = 0;
          }
        };
    long count =
        scan(
            dir,
            (key, value) -> {
              batch.keys.add(key);
              batch.records.add(Record.decode(value));
              batch.bytes += key.length + value.length;
              if (batch.keys.size() == batchSize || batch.bytes >= BATCH_BYTES) {
                batch.flush();
              }
            });
    if (!batch.keys.isEmpty()) {
      batch.flush();
    }
    return count;
  }

  /**
   * What a checkpoint holds, in one digest: its data records' count and the SHA-256 of their keys
   * and stored values in key order, each preceded by its length. Two checkpoints with the same
   * records have the same digest, whatever their files.
   */
  public record Digest(long records, String sha256) {}

  /** The {@link Digest} of the data records in {@code dir}. */
  public static Digest digest(Path dir) {
    MessageDigest sha = sha256();
    ByteBuffer length = ByteBuffer.allocate(Integer.BYTES);
    long count =
        scan(
            dir,
            (key, value) -> {
              sha.update(length.clear().putInt(key.length).flip());
              sha.update(key);
              sha.update(length.clear().putInt(value.length).flip());
              sha.update(value);
            });
    return new Digest(count, HexFormat.of().formatHex(sha.digest()));
  }

  private interface RawRecords {
    void accept(byte[] key, byte[] value);
  }

  /** Every data record of {@code dir} in key order, as stored; their count. */
  private static long scan(Path dir, RawRecords records) {
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    List<ColumnFamilyOptions> familyOptions = new ArrayList<>();
    try (Options listing = new Options();
        DBOptions options = new DBOptions();
        ReadOptions read = new ReadOptions().setFillCache(false)) {
      List<ColumnFamilyDescriptor> families = new ArrayList<>();
      int data = -1;
      for (byte[] name : RocksDB.listColumnFamilies(listing, dir.toString())) {
        data = Arrays.equals(name, RocksDB.DEFAULT_COLUMN_FAMILY) ? families.size() : data;
        ColumnFamilyOptions o = new ColumnFamilyOptions();
        familyOptions.add(o);
        families.add(new ColumnFamilyDescriptor(name, o));
      }
      if (data < 0) {
        throw new StorageException("no data column family in the checkpoint in " + dir, null);
      }
      try (RocksDB db = RocksDB.openReadOnly(options, dir.toString(), families, handles);
          RocksIterator all = db.newIterator(handles.get(data), read)) {
        long count = 0;
        for (all.seekToFirst(); all.isValid(); all.next()) {
          records.accept(all.key(), all.value());
          count++;
        }
        all.status();
        return count;
      } finally {
        handles.forEach(ColumnFamilyHandle::close);
      }
    } catch (RocksDBException e) {
      throw new StorageException("cannot read the checkpoint in " + dir + ": " + e.getMessage(), e);
    } finally {
      familyOptions.forEach(ColumnFamilyOptions::close);
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
