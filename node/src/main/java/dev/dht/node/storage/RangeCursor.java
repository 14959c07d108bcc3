package dev.dht.node.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * Reads a key range of one column family in bounded batches, skipping tombstones unless asked for
 * everything. Owns its iterator and read options; used by one storage worker at a time (batches are
 * requested one after another).
 */
public final class RangeCursor implements AutoCloseable {
  /** An entry of the range: the key and its record (raw bytes outside the data family). */
  public record Entry(byte[] key, byte[] value) {
    public Record record() {
      return Record.decode(value);
    }
  }

  private final Slice upperBound;
  private final ReadOptions readOptions;
  private final RocksIterator iterator;
  private final Consumer<RangeCursor> onClose;
  private final boolean everything;
  private boolean closed;

  RangeCursor(
      RocksDB db,
      ColumnFamilyHandle family,
      byte[] start,
      byte[] end,
      boolean everything,
      Consumer<RangeCursor> onClose) {
    this.onClose = onClose;
    this.everything = everything;
    this.upperBound = end == null ? null : new Slice(end);
    this.readOptions = new ReadOptions().setFillCache(false);
    if (upperBound != null) {
      readOptions.setIterateUpperBound(upperBound);
    }
    this.iterator = db.newIterator(family, readOptions);
    iterator.seek(start);
  }

  /**
   * The next entries, at most {@code maxEntries} and stopping once {@code maxBytes} are collected;
   * an empty list means the range is exhausted. Throws {@link StorageException} if reading failed
   * (e.g. a corrupt block), so that a failed read never looks like the end of the range.
   */
  public synchronized List<Entry> next(int maxEntries, int maxBytes) {
    List<Entry> batch = new ArrayList<>(Math.min(maxEntries, 64));
    int bytes = 0;
    while (!closed && iterator.isValid() && batch.size() < maxEntries && bytes < maxBytes) {
      byte[] value = iterator.value();
      if (everything || !Record.decode(value).tombstone()) {
        byte[] key = iterator.key();
        batch.add(new Entry(key, value));
        bytes += key.length + value.length;
      }
      iterator.next();
    }
    if (!closed && !iterator.isValid()) {
      try {
        iterator.status(); // an invalid iterator is either at the end or failed: which one?
      } catch (RocksDBException e) {
        throw new StorageException("reading the range failed", e);
      }
    }
    return batch;
  }

  /** The first key after every key that starts with {@code prefix}; null if there is none. */
  static byte[] prefixEnd(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xff) {
        end[i]++;
        return java.util.Arrays.copyOf(end, i + 1);
      }
    }
    return null;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    iterator.close();
    readOptions.close();
    if (upperBound != null) {
      upperBound.close();
    }
    onClose.accept(this);
  }
}
