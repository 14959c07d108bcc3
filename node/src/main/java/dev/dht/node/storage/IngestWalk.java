package dev.dht.node.storage;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BiConsumer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.SstFileReader;
import org.rocksdb.SstFileReaderIterator;
import org.rocksdb.TableProperties;

/**
 * The first half of an ingest: reads a received SST file in batches, looks each batch's keys up in
 * this node's data (one multi-get: a key absent here costs a bloom filter probe), and finds the
 * records that are newer than this node's and admitted. When that is all of them the file itself
 * can be ingested; otherwise their copy is written to {@code filtered}. A file that is not one a
 * peer's {@link SstWriter} wrote (deletions, merges, keys out of order, another comparator, a
 * record shorter than its header) fails the walk, so nothing of it is kept.
 */
final class IngestWalk {
  private static final String COMPARATOR = "leveldb.BytewiseComparator";

  /**
   * What to ingest: {@code file} (null: nothing), and the newest timestamp in it; how many records
   * were kept, ingested or written; the file's last key.
   */
  record Result(Path file, long entries, long kept, long newest, byte[] lastKey) {}

  /** Entries read, and looked up here, at a time. */
  private static final int BATCH = 1024;

  private final Options sstOptions;
  private final RocksDB db;
  private final ColumnFamilyHandle data;
  private final ReadOptions localRead;
  private final long purgeHorizon;
  private final Storage.Admission admission;
  private final BiConsumer<List<byte[]>, List<Record>> write;
  private final List<byte[]> writeKeys = new ArrayList<>();
  private final List<Record> writeRecords = new ArrayList<>();

  IngestWalk(
      Options sstOptions,
      RocksDB db,
      ColumnFamilyHandle data,
      ReadOptions localRead,
      long purgeHorizon,
      Storage.Admission admission,
      BiConsumer<List<byte[]>, List<Record>> write) {
    this.write = write;
    this.sstOptions = sstOptions;
    this.db = db;
    this.data = data;
    this.localRead = localRead;
    this.purgeHorizon = purgeHorizon;
    this.admission = admission;
  }

  Result run(Path file, Path filtered) throws RocksDBException {
    try (SstFileReader reader = new SstFileReader(sstOptions);
        ReadOptions read = new ReadOptions().setVerifyChecksums(true).setFillCache(false)) {
      reader.open(file.toString());
      TableProperties properties = reader.getTableProperties();
      checkProperties(properties);
      SstWriter copy = null;
      try (SstFileReaderIterator in = reader.newIterator(read)) {
        long entries = 0;
        long kept = 0;
        long ingested = 0;
        long newest = 0;
        byte[] last = null;
        List<byte[]> keys = new ArrayList<>(BATCH);
        List<Record> records = new ArrayList<>(BATCH);
        in.seekToFirst();
        while (next(in, keys, records)) {
          List<byte[]> mine =
              db.multiGetAsList(localRead, Collections.nCopies(keys.size(), data), keys);
          for (int i = 0; i < keys.size(); i++) {
            byte[] key = keys.get(i);
            Record record = records.get(i);
            Record local = mine.get(i) == null ? null : Record.decode(mine.get(i));
            boolean keeps = keeps(key, record, local);
            if (keeps && admission.readHere(key)) { // written as a write is, not ingested
              kept++;
              writeKeys.add(key);
              writeRecords.add(record);
              keeps = false;
            } else if (keeps) {
              ingested++;
              newest =
                  Long.compareUnsigned(record.timestamp(), newest) > 0
                      ? record.timestamp()
                      : newest;
              if (copy != null) {
                copy.put(key, record.encoded());
              }
            }
            if (!keeps && copy == null) { // the first entry left out: the rest go to a copy
              copy = new SstWriter(sstOptions, filtered);
              copyBefore(reader, read, key, copy);
            }
          }
          entries += keys.size();
          last = keys.getLast();
          flushWrites(BATCH);
        }
        flushWrites(1);
        in.status();
        if (entries != properties.getNumEntries()) {
          throw malformed(
              "it holds " + properties.getNumEntries() + " entries, " + entries + " read");
        }
        kept += ingested;
        if (ingested == 0) {
          return new Result(null, entries, kept, 0, last);
        }
        if (copy == null) {
          return new Result(file, entries, kept, newest, last);
        }
        copy.finish();
        return new Result(filtered, entries, kept, newest, last);
      } finally {
        if (copy != null) {
          copy.close();
        }
      }
    }
  }

  /**
   * The file's next entries, up to a batch, checked to come in increasing key order and to be
   * records; false at the end.
   */
  private boolean next(SstFileReaderIterator in, List<byte[]> keys, List<Record> records) {
    byte[] previous = keys.isEmpty() ? null : keys.getLast();
    keys.clear();
    records.clear();
    for (; in.isValid() && keys.size() < BATCH; in.next()) {
      byte[] key = in.key();
      if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
        throw malformed("its keys are not in increasing order");
      }
      previous = key;
      keys.add(key);
      records.add(decode(in.value()));
    }
    return !keys.isEmpty();
  }

  /** Writes the records to write, once there are {@code atLeast}. */
  private void flushWrites(int atLeast) {
    if (writeKeys.size() >= atLeast && !writeKeys.isEmpty()) {
      write.accept(List.copyOf(writeKeys), List.copyOf(writeRecords));
      writeKeys.clear();
      writeRecords.clear();
    }
  }

  /**
   * Newer than this node's version and admitted; a tombstone past the purge horizon only when it
   * has a value here to delete.
   */
  private boolean keeps(byte[] key, Record record, Record local) {
    return record.newerThan(local)
        && admission.admits(key, record)
        && !(record.tombstone() && record.timestamp() < purgeHorizon && local == null);
  }

  /** Copies the entries before {@code end} (all kept) into {@code copy}. */
  private static void copyBefore(
      SstFileReader reader, ReadOptions read, byte[] end, SstWriter copy) {
    try (SstFileReaderIterator in = reader.newIterator(read)) {
      for (in.seekToFirst(); in.isValid() && Arrays.compareUnsigned(in.key(), end) < 0; in.next()) {
        copy.put(in.key(), in.value());
      }
    }
  }

  private static void checkProperties(TableProperties p) {
    if (p.getNumDeletions() != 0 || p.getNumMergeOperands() != 0 || p.getNumRangeDeletions() != 0) {
      throw malformed("it holds deletions or merges, not only records");
    }
    if (!COMPARATOR.equals(p.getComparatorName())) {
      throw malformed("its keys are ordered by " + p.getComparatorName());
    }
  }

  private static Record decode(byte[] value) {
    try {
      return Record.decode(value);
    } catch (IllegalArgumentException e) {
      throw malformed(e.getMessage());
    }
  }

  private static IllegalArgumentException malformed(String why) {
    return new IllegalArgumentException("not a file of records: " + why);
  }
}
