package dev.dht.node.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * Reads a key range in bounded batches, skipping tombstones. Owns its iterator and read options;
 * used by one storage worker at a time (batches are requested one after another).
 */
public final class RangeCursor implements AutoCloseable {
  /** A live entry of the range: the key and the record holding its value. */
  public record Entry(byte[] key, Record record) {}

  private final Slice upperBound;
  private final ReadOptions readOptions;
  private final RocksIterator iterator;
  private final Consumer<RangeCursor> onClose;
  private boolean closed;

  RangeCursor(RocksDB db, byte[] start, byte[] end, Consumer<RangeCursor> onClose) {
    this.onClose = onClose;
    this.upperBound = end == null ? null : new Slice(end);
    this.readOptions = new ReadOptions().setFillCache(false);
    if (upperBound != null) {
      readOptions.setIterateUpperBound(upperBound);
    }
    this.iterator = db.newIterator(readOptions);
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
      Record record = Record.decode(iterator.value());
      if (!record.tombstone()) {
        byte[] key = iterator.key();
        batch.add(new Entry(key, record));
        bytes += key.length + record.valueLength();
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
