package dev.dht.node.storage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    List<ColumnFamilyOptions> familyOptions = new ArrayList<>();
    try (Options listing = new Options();
        // a bounded table cache: a large checkpoint must not take all of a serving node's handles
        DBOptions options = new DBOptions().setMaxOpenFiles(256);
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
        List<byte[]> keys = new ArrayList<>(batchSize);
        List<Record> records = new ArrayList<>(batchSize);
        long bytes = 0;
        for (all.seekToFirst(); all.isValid(); all.next()) {
          byte[] key = all.key();
          byte[] value = all.value();
          keys.add(key);
          records.add(Record.decode(value));
          count++;
          bytes += key.length + value.length;
          if (keys.size() == batchSize || bytes >= BATCH_BYTES) {
            batches.accept(keys, records);
            keys = new ArrayList<>(batchSize);
            records = new ArrayList<>(batchSize);
            bytes = 0;
          }
        }
        all.status();
        if (!keys.isEmpty()) {
          batches.accept(keys, records);
        }
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
}
