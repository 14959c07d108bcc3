package dev.dht.node.hints;

import dev.dht.node.storage.RangeCursor;
import dev.dht.node.storage.Record;
import dev.dht.node.storage.Storage;
import dev.dht.node.storage.StorageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's hints, durable in their own column family. Coordinators {@link #add} them from event
 * loops without waiting: they are written in batches by a storage worker. Bounded twice: by the
 * bytes stored ({@code maxBytes}; beyond, hints are dropped and counted, and anti-entropy repair
 * covers those writes), and by age (the hint window; older hints are deleted unreplayed, counted as
 * expired). Counts per target are kept in memory, rebuilt from disk at start.
 */
public final class HintStore {
  private static final Logger log = LoggerFactory.getLogger(HintStore.class);

  /** Hints waiting to be written beyond this many bytes are dropped (a bound on the heap). */
  private static final long MAX_UNWRITTEN_BYTES = 16 << 20;

  private final Storage storage;
  private final Executor writer;
  private final LongSupplier wallMillis;
  private final long windowMs;
  private final long maxBytes;
  private final Map<String, AtomicLong> pending = new ConcurrentHashMap<>();
  private final AtomicLong storedBytes = new AtomicLong();
  private final AtomicLong sequence = new AtomicLong(System.nanoTime());
  private final List<Hint> unwritten = new ArrayList<>(); // guarded by itself
  private long unwrittenBytes; // guarded by unwritten
  private final AtomicBoolean flushing = new AtomicBoolean();

  private final AtomicLong stored = new AtomicLong();
  private final AtomicLong replayed = new AtomicLong();
  private final AtomicLong expired = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final BiConsumer<String, AtomicLong> onTarget;

  /**
   * Opens the store on {@code storage}, counting the hints left by the previous run (blocks: call
   * it at start). {@code writer} runs blocking writes (a storage worker); {@code onTarget} is told
   * of each target's pending count when it is first met (for a gauge).
   */
  public HintStore(
      Storage storage,
      Executor writer,
      LongSupplier wallMillis,
      long windowMs,
      long maxBytes,
      BiConsumer<String, AtomicLong> onTarget) {
    this.onTarget = onTarget;
    this.storage = storage;
    this.writer = writer;
    this.wallMillis = wallMillis;
    this.windowMs = windowMs;
    this.maxBytes = maxBytes;
    try (RangeCursor all = storage.hints(new byte[0])) {
      for (List<RangeCursor.Entry> batch = all.next(4096, 1 << 22);
          !batch.isEmpty();
          batch = all.next(4096, 1 << 22)) {
        for (RangeCursor.Entry e : batch) {
          counter(Hint.targetOf(e.key())).incrementAndGet();
          storedBytes.addAndGet(e.key().length + e.value().length);
        }
      }
    }
    if (storedBytes.get() > 0) {
      log.info("{} bytes of hints to replay: {}", storedBytes.get(), pendingByTarget());
    }
  }

  /**
   * Keeps a write that {@code target} missed; returns at once (any thread). No window: no hints.
   */
  public void add(String target, byte[] key, Record record) {
    if (windowMs == 0) {
      return;
    }
    Hint hint = new Hint(target, wallMillis.getAsLong(), sequence.incrementAndGet(), key, record);
    int bytes = hint.bytes();
    synchronized (unwritten) {
      if (storedBytes.get() + unwrittenBytes + bytes > maxBytes
          || unwrittenBytes + bytes > MAX_UNWRITTEN_BYTES) {
        dropped.incrementAndGet();
        return;
      }
      unwritten.add(hint);
      unwrittenBytes += bytes;
    }
    if (flushing.compareAndSet(false, true)) {
      writer.execute(this::flush);
    }
  }

  private void flush() {
    try {
      while (true) {
        List<Hint> batch;
        long bytes;
        synchronized (unwritten) {
          if (unwritten.isEmpty()) {
            flushing.set(false);
            return;
          }
          batch = new ArrayList<>(unwritten);
          bytes = unwrittenBytes;
          unwritten.clear();
          unwrittenBytes = 0;
        }
        List<byte[]> keys = new ArrayList<>(batch.size());
        List<byte[]> values = new ArrayList<>(batch.size());
        for (Hint h : batch) {
          keys.add(h.encodedKey());
          values.add(h.encodedValue());
        }
        try {
          storage.putHints(keys, values);
          storedBytes.addAndGet(bytes);
          stored.addAndGet(batch.size());
          for (Hint h : batch) {
            counter(h.target()).incrementAndGet();
          }
        } catch (StorageException e) {
          dropped.addAndGet(batch.size());
          log.warn("could not store {} hints: {}", batch.size(), e.getMessage());
        }
      }
    } catch (RuntimeException e) {
      flushing.set(false);
      throw e;
    }
  }

  /** Targets with hints to replay, and how many each. */
  public Map<String, Long> pendingByTarget() {
    Map<String, Long> counts = new java.util.TreeMap<>();
    pending.forEach((target, count) -> {
      if (count.get() > 0) {
        counts.put(target, count.get());
      }
    });
    return counts;
  }

  /** The gauge of one target's pending hints, created on first use. */
  private AtomicLong counter(String target) {
    AtomicLong counter = pending.get(target);
    if (counter == null) {
      counter = pending.computeIfAbsent(target, t -> new AtomicLong());
      onTarget.accept(target, counter);
    }
    return counter;
  }

  /** Hints written to disk since start. */
  public long stored() {
    return stored.get();
  }

  /** Hints replayed to their target (and deleted) since start. */
  public long replayed() {
    return replayed.get();
  }

  /** Hints deleted unreplayed since start: older than the hint window. */
  public long expired() {
    return expired.get();
  }

  /** Hints not kept since start: beyond the size bounds, not writable, or for a removed member. */
  public long dropped() {
    return dropped.get();
  }

  public long storedBytes() {
    return storedBytes.get();
  }

  /**
   * The oldest hints for {@code target} that are still within the hint window (at most {@code max}
   * of them or about {@code maxBytes}); the expired ones met on the way are deleted. Blocks.
   */
  public List<Hint> oldest(String target, int max, int maxBytes) {
    List<Hint> live = new ArrayList<>();
    List<Hint> old = new ArrayList<>();
    long horizon = wallMillis.getAsLong() - windowMs;
    try (RangeCursor cursor = storage.hints(Hint.prefix(target))) {
      for (RangeCursor.Entry e : cursor.next(max, maxBytes)) {
        Hint hint = Hint.decode(e.key(), e.value());
        (hint.createdMillis() < horizon ? old : live).add(hint);
      }
    }
    if (!old.isEmpty()) {
      delete(old);
      expired.addAndGet(old.size());
    }
    return live;
  }

  /**
   * Deletes every hint for {@code target}, a member that was removed (as Cassandra drops a
   * decommissioned node's hints): their writes went to the replicas that own the keys now, and
   * nobody waits on a node that is gone. Counted as dropped; returns how many. Blocks.
   */
  public long dropFor(String target) {
    long count = 0;
    for (List<Hint> batch = batchFor(target); !batch.isEmpty(); batch = batchFor(target)) {
      delete(batch);
      count += batch.size();
    }
    dropped.addAndGet(count);
    return count;
  }

  private List<Hint> batchFor(String target) {
    List<Hint> batch = new ArrayList<>();
    try (RangeCursor cursor = storage.hints(Hint.prefix(target))) {
      for (RangeCursor.Entry e : cursor.next(4096, 1 << 22)) {
        batch.add(Hint.decode(e.key(), e.value()));
      }
    }
    return batch;
  }

  /** Deletes hints that were replayed. Blocks. */
  public void replayed(List<Hint> hints) {
    delete(hints);
    replayed.addAndGet(hints.size());
  }

  private void delete(List<Hint> hints) {
    if (hints.isEmpty()) {
      return; // a replay that reached nothing: no write
    }
    storage.deleteHints(hints.stream().map(Hint::encodedKey).toList());
    long bytes = 0;
    for (Hint h : hints) {
      bytes += h.bytes();
      counter(h.target()).decrementAndGet();
    }
    storedBytes.addAndGet(-bytes);
  }
}
