package dev.dht.node.storage;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.IngestExternalFileOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.Priority;
import org.rocksdb.ReadOptions;
import org.rocksdb.ReadTier;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
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
 *
 * <p>Besides the data (the default column family), the database holds hints for other replicas
 * ({@link #HINTS}) and the node's own small facts ({@link #META}, e.g. its clock's high-water
 * mark).
 *
 * <p>A write needs the stored version of its key only when it might not be the newer one: {@link
 * VersionBounds} knows an upper bound of the stored versions per slot of keys, so a write stamped
 * above it (the common case: clocks move forward) is stored without a read. The bound of the whole
 * store at the last start is kept in {@link #META}, written in the same batch as any record above
 * it.
 *
 * <p>Tombstones older than the purge horizon (a timestamp: now minus the tombstone grace period)
 * are not kept: a write of such a tombstone deletes the key instead, and {@link #purge} removes the
 * ones that became that old.
 */
public final class Storage implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
  }

  private final Statistics statistics = new Statistics();
  private final LRUCache blockCache;
  private final BloomFilter bloomFilter = new BloomFilter(10);
  private final DBOptions options;
  private final ColumnFamilyOptions dataOptions;
  private final ColumnFamilyOptions smallOptions;
  private final List<ColumnFamilyHandle> families = new ArrayList<>();
  private final ColumnFamilyHandle data;
  private final ColumnFamilyHandle hints;
  private final ColumnFamilyHandle meta;
  private final LongSupplier purgeHorizon;
  private final WriteOptions writeOptions = new WriteOptions(); // WAL on, no fsync per write
  private final WriteOptions syncedWrite = new WriteOptions().setSync(true); // rare: per ingest
  private final ReadOptions readOptions = new ReadOptions();
  private final ReadOptions memoryOnly = new ReadOptions().setReadTier(ReadTier.BLOCK_CACHE_TIER);
  private final RocksDB db;
  private final Object writeLock = new Object();
  private final Object ingestLock = new Object(); // one ingest at a time
  private final Options sstOptions; // files written and ingested: the data's own format
  private final IngestExternalFileOptions ingestOptions =
      new IngestExternalFileOptions()
          .setMoveFiles(true)
          .setAllowGlobalSeqNo(true)
          .setAllowBlockingFlush(true);
  private final Path transferDir;
  private Map<ByteBuffer, Record> writtenDuringIngest; // guarded by writeLock; null: no ingest
  private final List<WriteWatch> watches = new ArrayList<>(); // guarded by writeLock
  private final Set<RangeCursor> openCursors = ConcurrentHashMap.newKeySet();
  private final VersionBounds bounds; // guarded by writeLock
  private long persistedBound; // guarded by writeLock: STORED_BOUND's value in META

  /** META key: an upper bound (unsigned) of the timestamp of every stored record. */
  static final byte[] STORED_BOUND = "stored-version-bound".getBytes();

  /** How far above a stored timestamp the persisted bound is set: one META write per ~10 s. */
  private static final long BOUND_MARGIN = 10_000L << 20; // timestamps: millis << 20

  /** Slots of {@link VersionBounds}: 4 MiB of bounds. */
  private static final int BOUND_SLOTS = 1 << 19;

  /** Operations hold the read side; close() takes the write side, so no call races the close. */
  private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();

  private volatile boolean closed;

  /** What {@link #getIfInMemory} answers when the key's data is not in memory. */
  public static final Record NOT_IN_MEMORY = Record.tombstone(Long.MIN_VALUE);

  /** The column family of hints: written and read by the hint store only. */
  public static final String HINTS = "hints";

  /** The column family of the node's own facts. */
  public static final String META = "meta";

  /** META key: the writes that landed during an ingest, until they are stored again after it. */
  static final byte[] PENDING_WRITES = "ingest-pending-writes".getBytes();

  /** A directory for files in transit (streams): emptied at every open. */
  static final String TRANSFER_DIR = "transfer";

  /**
   * Decides whether a received record may be kept, beside it being newer: e.g. not stamped too far
   * ahead of this node's clock. Throws {@link IllegalArgumentException} for one that is malformed.
   */
  public interface Admission {
    boolean admits(byte[] key, Record record);

    /**
     * Whether reads ask this node for {@code key} now: such a record, if kept, is written as a
     * write is, never ingested (an ingest may show a record that a write landing meanwhile is about
     * to supersede, for as long as it takes to store that write again).
     */
    default boolean readHere(byte[] key) {
      return false;
    }
  }

  /**
   * What an ingest held and kept (those newer than this node's versions, and admitted), and the
   * file's last key (null if it held none).
   */
  public record Ingested(long entries, long kept, byte[] lastKey) {}

  /** Whether {@code dataDir} holds a database already (a node ran on it before). */
  public static boolean exists(Path dataDir) {
    return Files.exists(dataDir.resolve("CURRENT"));
  }

  /** A store that keeps every tombstone (tests and tools). */
  public Storage(Path dataDir, long blockCacheBytes) {
    this(dataDir, blockCacheBytes, () -> Long.MIN_VALUE);
  }

  /**
   * Opens (or creates) the database in {@code dataDir}; tombstones stamped before {@code
   * purgeHorizon} (read at each write and purge) are not kept.
   */
  public Storage(Path dataDir, long blockCacheBytes, LongSupplier purgeHorizon) {
    this.purgeHorizon = purgeHorizon;
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
          new DBOptions()
              .setCreateIfMissing(true)
              .setCreateMissingColumnFamilies(true)
              .setStatistics(statistics)
              .setMaxBackgroundJobs(2)
              .setBytesPerSync(1 << 20);
      dataOptions =
          new ColumnFamilyOptions()
              .setTableFormatConfig(table)
              .setCompressionType(CompressionType.LZ4_COMPRESSION);
      smallOptions =
          new ColumnFamilyOptions()
              .setCompressionType(CompressionType.LZ4_COMPRESSION)
              .setWriteBufferSize(8 << 20);
      db =
          RocksDB.open(
              options,
              dataDir.toString(),
              List.of(
                  new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, dataOptions),
                  new ColumnFamilyDescriptor(HINTS.getBytes(), smallOptions),
                  new ColumnFamilyDescriptor(META.getBytes(), smallOptions)),
              families);
      data = families.get(0);
      hints = families.get(1);
      meta = families.get(2);
      persistedBound = storedBound();
      bounds = new VersionBounds(BOUND_SLOTS, persistedBound);
      sstOptions = new Options(options, dataOptions);
      transferDir = dataDir.resolve(TRANSFER_DIR);
      emptyTransferDir();
      byte[] pending = db.get(meta, readOptions, PENDING_WRITES);
      if (pending != null) { // an ingest was interrupted after it was done
        storeAgain(PendingWrites.decode(pending));
      }
    } catch (Exception e) {
      throw new StorageException("cannot open RocksDB in " + dataDir + ": " + e.getMessage(), e);
    }
  }

  /** The stored record of {@code key}, tombstones included; null if the key was never written. */
  public Record get(byte[] key) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      byte[] encoded = db.get(data, readOptions, key);
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
      byte[] encoded = db.get(data, memoryOnly, key);
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
    return putAllIfNewer(keys, records, false);
  }

  /**
   * Like {@link #putAllIfNewer}, but keeping every tombstone, however old: for a restore, which
   * loads several old copies of a key one after the other, so an old delete must stay to win over
   * an older value loaded after it.
   */
  public Record[] restoreAllIfNewer(List<byte[]> keys, List<Record> records) {
    return putAllIfNewer(keys, records, true);
  }

  private Record[] putAllIfNewer(List<byte[]> keys, List<Record> records, boolean keepTombstones) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      synchronized (writeLock) {
        long horizon = keepTombstones ? Long.MIN_VALUE : purgeHorizon.getAsLong();
        Record[] kept = new Record[keys.size()];
        Map<ByteBuffer, Record> written = new HashMap<>();
        long newest = 0;
        try (WriteBatch batch = new WriteBatch()) {
          for (int i = 0; i < keys.size(); i++) {
            ByteBuffer key = ByteBuffer.wrap(keys.get(i));
            Record record = records.get(i);
            Record current =
                written.containsKey(key)
                    ? written.get(key)
                    : bounds.above(keys.get(i), record.timestamp()) ? null : stored(keys.get(i));
            if (record.newerThan(current)) {
              bounds.raise(keys.get(i), record.timestamp());
              if (Long.compareUnsigned(record.timestamp(), newest) > 0) {
                newest = record.timestamp();
              }
              if (record.tombstone() && record.timestamp() < horizon) {
                batch.delete(data, keys.get(i)); // a tombstone past its grace: nothing to keep
              } else {
                batch.put(data, keys.get(i), record.encoded());
              }
              written.put(key, record);
              watches.forEach(watch -> watch.written(key));
              if (writtenDuringIngest != null) { // the newest of the key's writes
                writtenDuringIngest.merge(key, record, (a, b) -> b.newerThan(a) ? b : a);
              }
            } else {
              kept[i] = current;
            }
          }
          long bound = boundFor(newest, batch);
          if (!written.isEmpty()) {
            db.write(writeOptions, batch);
            persistedBound = bound;
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

  /**
   * The persisted bound once records up to {@code newest} are stored: raised (its new value put in
   * {@code batch}) when they are above it. Under the write lock.
   */
  private long boundFor(long newest, WriteBatch batch) throws RocksDBException {
    long bound = persistedBound;
    if (Long.compareUnsigned(newest, bound) > 0) {
      bound = newest + BOUND_MARGIN;
      bound = Long.compareUnsigned(bound, newest) < 0 ? -1L : bound; // unsigned overflow
      batch.put(meta, STORED_BOUND, ByteBuffer.allocate(Long.BYTES).putLong(bound).array());
    }
    return bound;
  }

  /** Where files in transit go: on the data's file system, so an ingest moves them. */
  public Path transferDir() {
    return transferDir;
  }

  private void emptyTransferDir() throws java.io.IOException {
    Files.createDirectories(transferDir);
    try (var leftovers = Files.list(transferDir)) {
      for (Path file : leftovers.toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  /** A writer of a new SST file of records in this store's format (it copies the options). */
  public SstWriter sstWriter(Path file) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      return new SstWriter(sstOptions, file);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Keeps the records of an SST file (a peer's {@link SstWriter}'s) that are newer than this node's
   * versions and admitted, as {@link #putAllIfNewer} would, but without writing them one by one:
   * one pass over the file and the data finds them, and the file, or a copy of just those, is
   * ingested whole. Writes that land meanwhile are recorded and, after the ingest, stored again
   * where they are newer than what it brought. The file may be moved into the store; the caller
   * deletes what is left. Throws {@link IllegalArgumentException} for a malformed file: nothing of
   * it is ingested (records that reads ask this node for, written before the malformed part was
   * read, stay: as any write, where newer).
   */
  public Ingested ingestIfNewer(Path file, Admission admission) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      synchronized (ingestLock) {
        Map<ByteBuffer, Record> during = new HashMap<>();
        synchronized (writeLock) {
          writtenDuringIngest = during; // before the walk's view of the data is taken
        }
        Path filtered = file.resolveSibling(file.getFileName() + ".kept");
        try (ReadOptions read = new ReadOptions(); // consecutive keys share blocks: cache them
            FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
          IngestWalk.Result walk =
              new IngestWalk(
                      sstOptions,
                      db,
                      data,
                      read,
                      purgeHorizon.getAsLong(),
                      admission,
                      this::putAllIfNewer)
                  .run(file, filtered);
          if (walk.file() != null) {
            db.flush(flush, data); // here, so that the ingest's own flush, under the lock, is short
          }
          synchronized (writeLock) {
            writtenDuringIngest = null;
            if (walk.file() != null) {
              ingest(walk.file(), walk.newest(), during);
            }
          }
          return new Ingested(walk.entries(), walk.kept(), walk.lastKey());
        } finally {
          synchronized (writeLock) {
            writtenDuringIngest = null;
          }
          Files.deleteIfExists(filtered);
        }
      }
    } catch (RocksDBException | java.io.IOException e) {
      throw new StorageException("ingest of " + file + " failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Ingests a walked file, under the write lock. First the bounds of stored versions (which let a
   * write skip reading the stored one) are raised to the file's newest, and persisted with the
   * writes that landed during the walk, synced: so no later write skips its read of what the file
   * brings, and a crash after the ingest does not leave those writes under it (they are stored
   * again at the next open). Then the ingest, and those writes stored again where newer.
   */
  private void ingest(Path file, long newest, Map<ByteBuffer, Record> during)
      throws RocksDBException {
    bounds.raiseAll(newest);
    watches.forEach(WriteWatch::lose);
    try (WriteBatch batch = new WriteBatch()) {
      long bound = boundFor(newest, batch);
      if (!during.isEmpty()) {
        batch.put(meta, PENDING_WRITES, PendingWrites.encode(during));
      }
      if (batch.count() > 0) {
        db.write(syncedWrite, batch);
        persistedBound = bound;
      }
    }
    db.ingestExternalFile(data, List.of(file.toString()), ingestOptions);
    storeAgain(during);
  }

  /**
   * Stores again what was written during an ingest, where newer than what is stored now, and drops
   * the persisted copy. Under the write lock, or at open.
   */
  private void storeAgain(Map<ByteBuffer, Record> during) throws RocksDBException {
    if (during.isEmpty()) {
      return;
    }
    List<byte[]> keys = new ArrayList<>(during.size());
    during.keySet().forEach(k -> keys.add(k.array()));
    List<byte[]> stored = db.multiGetAsList(readOptions, dataFamilies(keys.size()), keys);
    long horizon = purgeHorizon.getAsLong();
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = 0; i < keys.size(); i++) {
        Record record = during.get(ByteBuffer.wrap(keys.get(i)));
        Record current = stored.get(i) == null ? null : Record.decode(stored.get(i));
        if (record.newerThan(current)) {
          if (record.tombstone() && record.timestamp() < horizon) {
            batch.delete(data, keys.get(i));
          } else {
            batch.put(data, keys.get(i), record.encoded());
          }
        }
      }
      batch.delete(meta, PENDING_WRITES);
      db.write(writeOptions, batch);
    }
  }

  /**
   * The persisted bound of every stored timestamp; without one (a store written by an older
   * version), the largest stored timestamp, found by a scan of the data.
   */
  private long storedBound() throws RocksDBException {
    byte[] persisted = db.get(meta, readOptions, STORED_BOUND);
    if (persisted != null && persisted.length == Long.BYTES) {
      return ByteBuffer.wrap(persisted).getLong();
    }
    long newest = 0;
    try (RocksIterator all = db.newIterator(data, readOptions)) {
      for (all.seekToFirst(); all.isValid(); all.next()) {
        byte[] value = all.value();
        if (value.length >= Long.BYTES) {
          long timestamp = ByteBuffer.wrap(value, 0, Long.BYTES).getLong();
          newest = Long.compareUnsigned(timestamp, newest) > 0 ? timestamp : newest;
        }
      }
      all.status();
    }
    return newest;
  }

  /** The data family, {@code size} times: the families of a multi-get of {@code size} keys. */
  private List<ColumnFamilyHandle> dataFamilies(int size) {
    return java.util.Collections.nCopies(size, data);
  }

  private Record stored(byte[] key) throws RocksDBException {
    byte[] encoded = db.get(data, readOptions, key);
    return encoded == null ? null : Record.decode(encoded);
  }

  /**
   * Deletes each of {@code tombstones} that is still the stored version of its key and stamped
   * before the purge horizon; returns how many were deleted.
   */
  public int purge(List<byte[]> keys, List<Record> tombstones) {
    return removeIf(keys, tombstones, true, null);
  }

  /**
   * Watches the keys written from now on, up to {@code limitBytes} of them: a record read after
   * this call and not written since is still the stored one. Close it.
   */
  public WriteWatch watchWrites(long limitBytes) {
    synchronized (writeLock) {
      WriteWatch watch = new WriteWatch(limitBytes, this::unwatch);
      watches.add(watch);
      return watch;
    }
  }

  private void unwatch(WriteWatch watch) {
    synchronized (writeLock) {
      watches.remove(watch);
    }
  }

  /**
   * Deletes each key whose stored version is still the given one, read after {@code since} was
   * opened; returns how many. Only the keys {@code since} may have seen written are read again.
   */
  public int removeIfUnchanged(List<byte[]> keys, List<Record> records, WriteWatch since) {
    return removeIf(keys, records, false, since);
  }

  private int removeIf(
      List<byte[]> keys, List<Record> records, boolean onlyOldTombstones, WriteWatch since) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      synchronized (writeLock) {
        long horizon = purgeHorizon.getAsLong();
        Record[] stored = storedNow(keys, records, since);
        int purged = 0;
        try (WriteBatch batch = new WriteBatch()) {
          for (int i = 0; i < keys.size(); i++) {
            Record current = stored[i];
            if (current != null
                && current.timestamp() == records.get(i).timestamp()
                && current.tombstone() == records.get(i).tombstone()
                && (!onlyOldTombstones || (current.tombstone() && current.timestamp() < horizon))) {
              batch.delete(data, keys.get(i));
              purged++;
            }
          }
          if (purged > 0) {
            db.write(writeOptions, batch);
          }
        }
        return purged;
      }
    } catch (RocksDBException e) {
      throw new StorageException("purge failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * The stored records of {@code keys}, read in one multi-get, except those that {@code since} (if
   * any) knows were not written after they were read: for those, what was read. Under the write
   * lock.
   */
  private Record[] storedNow(List<byte[]> keys, List<Record> read, WriteWatch since)
      throws RocksDBException {
    Record[] stored = new Record[keys.size()];
    List<Integer> again = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      if (since != null && !since.maybeWritten(keys.get(i))) {
        stored[i] = read.get(i);
      } else {
        again.add(i);
      }
    }
    if (!again.isEmpty()) {
      List<byte[]> againKeys = new ArrayList<>(again.size());
      again.forEach(i -> againKeys.add(keys.get(i)));
      List<byte[]> values = db.multiGetAsList(readOptions, dataFamilies(again.size()), againKeys);
      for (int j = 0; j < again.size(); j++) {
        stored[again.get(j)] = values.get(j) == null ? null : Record.decode(values.get(j));
      }
    }
    return stored;
  }

  /** The timestamp before which tombstones are purged. */
  public long purgeHorizon() {
    return purgeHorizon.getAsLong();
  }

  /**
   * A cursor over the live entries with {@code start <= key < end} ({@code end} null: to the last
   * key). Close it.
   */
  public RangeCursor range(byte[] start, byte[] end) {
    return cursor(data, start, end, false);
  }

  /** A cursor over every data record from {@code start} on, tombstones included. Close it. */
  public RangeCursor scan(byte[] start) {
    return cursor(data, start, null, true);
  }

  /** A cursor over the hints whose keys start with {@code prefix}. Close it. */
  public RangeCursor hints(byte[] prefix) {
    return cursor(hints, prefix, RangeCursor.prefixEnd(prefix), true);
  }

  private RangeCursor cursor(
      ColumnFamilyHandle family, byte[] start, byte[] end, boolean everything) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      RangeCursor cursor = new RangeCursor(db, family, start, end, everything, openCursors::remove);
      openCursors.add(cursor);
      return cursor;
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** Stores hints (raw key and value bytes), in one atomic write. */
  public void putHints(List<byte[]> keys, List<byte[]> values) {
    writeRaw(hints, keys, values);
  }

  /** Deletes hints. */
  public void deleteHints(List<byte[]> keys) {
    writeRaw(hints, keys, null);
  }

  /** A fact of the node; null if never stored. */
  public byte[] getMeta(byte[] key) {
    lifecycle.readLock().lock();
    try {
      ensureOpen();
      return db.get(meta, readOptions, key);
    } catch (RocksDBException e) {
      throw new StorageException("get failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Stores a fact of the node, in the WAL like every write (not synced: a synced write would sync
   * the WAL shared with the data, stalling the data writes of its group).
   */
  public void putMeta(byte[] key, byte[] value) {
    writeRaw(meta, List.of(key), List.of(value));
  }

  /**
   * Deletes every record of the data (one range deletion: all or nothing), e.g. data found stale at
   * start; hints and the node's facts stay.
   */
  public void dropData() {
    lifecycle.readLock().lock();
    try (RocksIterator last = db.newIterator(data)) {
      ensureOpen();
      synchronized (writeLock) {
        last.seekToLast();
        if (last.isValid()) {
          byte[] key = last.key();
          byte[] end = java.util.Arrays.copyOf(key, key.length + 1); // just past the last key
          db.deleteRange(data, writeOptions, new byte[0], end);
        }
      }
    } catch (RocksDBException e) {
      throw new StorageException("dropping the data failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** Deletes a fact of the node. */
  public void deleteMeta(byte[] key) {
    writeRaw(meta, List.of(key), null);
  }

  private void writeRaw(ColumnFamilyHandle family, List<byte[]> keys, List<byte[]> values) {
    lifecycle.readLock().lock();
    try (WriteBatch batch = new WriteBatch()) {
      ensureOpen();
      for (int i = 0; i < keys.size(); i++) {
        if (values == null) {
          batch.delete(family, keys.get(i));
        } else {
          batch.put(family, keys.get(i), values.get(i));
        }
      }
      db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw new StorageException("write failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /**
   * Writes a consistent image of the database into {@code dir}, which must not exist and must be on
   * the data's file system: hard links to its SST files, copies of the small files, and the
   * memtables flushed first, so every write stored before the call is in it. Returns an upper bound
   * of every timestamp in the image.
   */
  public long checkpoint(Path dir) {
    lifecycle.readLock().lock();
    try (Checkpoint checkpoint = Checkpoint.create(db)) {
      ensureOpen();
      checkpoint.createCheckpoint(dir.toString());
      synchronized (writeLock) {
        return persistedBound; // read after: it only grows, so it bounds what the image holds
      }
    } catch (RocksDBException e) {
      throw new StorageException("checkpoint failed: " + e.getMessage(), e);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  /** A RocksDB property such as {@code rocksdb.estimate-num-keys}; -1 if unknown. */
  public long longProperty(String name) {
    lifecycle.readLock().lock();
    try {
      return closed ? -1 : db.getLongProperty(data, name);
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
    families.forEach(ColumnFamilyHandle::close);
    db.close();
    readOptions.close();
    memoryOnly.close();
    writeOptions.close();
    syncedWrite.close();
    ingestOptions.close();
    sstOptions.close();
    options.close();
    dataOptions.close();
    smallOptions.close();
    bloomFilter.close();
    blockCache.close();
    statistics.close();
  }
}
