package dev.dht.node.storage;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.Env;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.Priority;
import org.rocksdb.ReadOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Statistics;
import org.rocksdb.Status;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The node's RocksDB: the one owner of the database and of every native object used with it, all
 * created once and closed in reverse order. Every method blocks and must run on a storage worker,
 * never on an event loop.
 *
 * <p>A key maps to one {@link Record}. Writes keep the record with the larger timestamp, so a late
 * or replayed older write never overwrites a newer one; writes go in one WriteBatch per call and
 * are serialised, which makes that read-compare-write atomic.
 *
 * <p>{@link #getIfInMemory} is the exception: it never touches the disk, so an event loop may call
 * it and fall back to a worker when it answers {@link #NOT_IN_MEMORY}.
 */
public final class Storage implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final Statistics statistics = new Statistics();
  private final LRUCache blockCache;
  private final BloomFilter bloomFilter = new BloomFilter(10);
  private final Options options;
  private final WriteOptions writeOptions = new WriteOptions(); // WAL on, no fsync per write
  private final ReadOptions readOptions = new ReadOptions();
  private final ReadOptions memoryOnly = new ReadOptions().setReadTier(ReadTier.BLOCK_CACHE_TIER);
  private final RocksDB db;
  private final Object writeLock = new Object();
  private final Set<RangeCursor> openCursors = ConcurrentHashMap.newKeySet();

  /** Operations hold the read side; close() takes the write side, so no call races the close. */
  private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private volatile boolean closed;

  /** What {@link #getIfInMemory} answers when the key's data is not in memory. */
  public static final Record NOT_IN_MEMORY = Record.tombstone(Long.MIN_VALUE);

  public Storage(Path dataDir, long blockCacheBytes) {
    try {
      Files.createDirectories(dataDir);
      // Flushes and compactions yield the CPU to requests: on a small machine a flush at normal
      // priority stalls every request for as long as it runs (measured: a p99 spike per flush).
      Env.getDefault()
          .lowerThreadPoolCPUPriority(Priority.HIGH)
          .lowerThreadPoolCPUPriority(Priority.LOW);
      blockCache = new LRUCache(blockCacheBytes);
      BlockBasedTableConfig table =
          new BlockBasedTableConfig()
              .setBlockCache(blockCache)
              .setFilterPolicy(bloomFilter)
              .setWholeKeyFiltering(true);
      options =
          new Options()
              .setCreateIfMissing(true)
              .setStatistics(statistics)
              .setTableFormatConfig(table)
              .setCompressionType(CompressionType.LZ4_COMPRESSION)
              .setMaxBackgroundJobs(2)
              .setBytesPerSync(1 << 20);
      db = RocksDB.open(options, dataDir.toString());
    } catch (Exception e) {
      throw new StorageException("cannot open RocksDB in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /** The stored record of {@code key}, tombstones included; null if the key was never written. */
  public Record get(byte[] key) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      byte[] encoded = db.get(readOptions, key);
      return encoded == null ? null : Record.decode(encoded);
    } catch (RocksDBException e) {
      throw new StorageException("get failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Like {@link #get}, from the memtables and the block cache only: {@link #NOT_IN_MEMORY} when
   * answering would need a disk read. Never blocks: neither on I/O nor on a closing database.
   */
  public Record getIfInMemory(byte[] key) {
    if (!lifecycle.readLock().tryLock()) {
      return NOT_IN_MEMORY; // closing: the caller's fallback to a worker waits, not the loop
    }
    try {
      ensureOpen();
      byte[] encoded = db.get(memoryOnly, key);
      return encoded == null ? null : Record.decode(encoded);
    } catch (RocksDBException e) {
      if (e.getStatus() != null && e.getStatus().getCode() == Status.Code.Incomplete) {
        return NOT_IN_MEMORY;
      }
      throw new StorageException("get failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Stores {@code record} unless a newer version is already there; returns whether it was stored.
   */
  public boolean putIfNewer(byte[] key, Record record) {
    return putAllIfNewer(List.of(key), List.of(record))[0] == null;
  }

  /**
   * Stores each record unless a version of its key at least as new is already there, all in one
   * atomic write (one WAL append for the lot); returns, for each record, null if it was stored, or
   * the version that kept it out. Writers are serialised so the read-compare-write of a key never
   * interleaves with another; RocksDB serialises its WAL appends anyway, and reads never wait for
   * this lock.
   */
  public Record[] putAllIfNewer(List<byte[]> keys, List<Record> records) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      synchronized (writeLock) {
        Record[] kept = new Record[keys.size()];
        Map<ByteBuffer, Record> written = new HashMap<>();
        try (WriteBatch batch = new WriteBatch()) {
          for (int i = 0; i < keys.size(); i++) {
            ByteBuffer key = ByteBuffer.wrap(keys.get(i));
            Record record = records.get(i);
            Record current = written.containsKey(key) ? written.get(key) : stored(keys.get(i));
            if (record.newerThan(current)) {
              batch.put(keys.get(i), record.encoded());
              written.put(key, record);
            } else {
              kept[i] = current;
            }
          }
          if (!written.isEmpty()) {
            db.write(writeOptions, batch);
          }
        }
        return kept;
      }
    } catch (RocksDBException e) {
      throw new StorageException("write failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private Record stored(byte[] key) throws RocksDBException {
    byte[] encoded = db.get(readOptions, key);
    return encoded == null ? null : Record.decode(encoded);
  }

  /** A cursor over {@code start <= key < end} ({@code end} null: to the last key). Close it. */
  public RangeCursor range(byte[] start, byte[] end) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      RangeCursor cursor = new RangeCursor(db, start, end, openCursors::remove);
      openCursors.add(cursor);
      return cursor;
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** A RocksDB property such as {@code rocksdb.estimate-num-keys}; -1 if unknown. */
  public long longProperty(String name) {
    lifecycle.readLock().lock();
    try {
      return closed ? -1 : db.getLongProperty(name);
    } catch (RocksDBException e) {
      return -1;
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  public Statistics statistics() {
    return statistics;
  }

  public boolean isOpen() {
    return !closed;
  }

  /** Flushes the WAL and closes cursors, then the database, then its options. */
  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      closeOnce();
    } finally {
      lifecycle.writeLock().unlock();
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new StorageException("storage is closed", null);
    }
  }

  private void closeOnce() {
    if (closed) {
      return;
    }
    closed = true;
    openCursors.forEach(RangeCursor::close);
    try {
      db.flushWal(true);
    } catch (RocksDBException e) {
      // closing anyway: the WAL was written on every put, only the final fsync failed
    }
    db.close();
    readOptions.close();
    memoryOnly.close();
    writeOptions.close();
    options.close();
    bloomFilter.close();
    blockCache.close();
    statistics.close();
  }
}
