package dev.dht.node.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link HybridClock.Reservation} of a node, kept in a small file of its data directory (not in
 * RocksDB: a synced write there would sync the shared WAL and stall every data write in its group;
 * measured, p99 of PUTs at 10k/s went from ~20 to ~150 ms): the millisecond up to which its clock
 * may issue timestamps, synced to disk before the clock may use it. A thread of its own (never an
 * event loop) keeps it {@link HybridClock#RESERVE_AHEAD_MS} to twice that ahead of the wall clock,
 * one synced write of 8 bytes at most every {@link HybridClock#RESERVE_AHEAD_MS}, and extends it at
 * once when the clock needs more (a timestamp stamped above a version from a clock that runs
 * ahead).
 *
 * <p>At start, the clock continues above what was reserved before. If that is slightly ahead of the
 * wall clock (a quick restart), the start waits until the wall clock passes it, so that peers do
 * not see this node's timestamps as ahead of their clocks; if it is far ahead (the clock went
 * back), it continues from there at once and says so; its clock then issues no timestamp until the
 * wall clock is within the maximum clock offset of the mark (see {@link HybridClock#nextAfter}).
 *
 * <p>While the node's clock is fenced, the mark is not kept ahead of the wall clock: a clock that
 * jumped ahead must not leave a mark that a restart would continue from, with timestamps that
 * shadow every later write.
 */
public final class ClockHighWaterMark implements HybridClock.Reservation, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClockHighWaterMark.class);
  private static final String FILE = "clock-high-water-ms";

  private final FileChannel file;
  private final long floor;
  private final AtomicLong wanted = new AtomicLong();
  private final AtomicBoolean writing = new AtomicBoolean();

  /** The longest a start waits for its wall clock to pass what the previous run reserved. */
  private static final long MAX_START_WAIT_MS = 3 * HybridClock.RESERVE_AHEAD_MS;

  private final ScheduledExecutorService writer =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().daemon(true).name("dht-clock").unstarted(r));
  private final LongSupplier wallMillis;
  private final HybridClock.Fence fence;
  private volatile long reserved;

  private ClockHighWaterMark(
      FileChannel file,
      LongSupplier wallMillis,
      HybridClock.Fence fence,
      long floor,
      long reserved) {
    this.file = file;
    this.wallMillis = wallMillis;
    this.fence = fence;
    this.floor = floor;
    this.reserved = reserved;
    this.wanted.set(reserved);
    long period = HybridClock.RESERVE_AHEAD_MS / 2;
    writer.scheduleWithFixedDelay(this::keepAhead, period, period, TimeUnit.MILLISECONDS);
  }

  /**
   * Reads the mark left by the previous run (the clock starts above it) and reserves ahead of the
   * larger of it and the wall clock; blocks for one synced write. {@code dataDir} must exist.
   */
  public static ClockHighWaterMark open(Path dataDir, LongSupplier wallMillis) {
    return open(dataDir, wallMillis, HybridClock.Fence.NONE);
  }

  /** Like {@link #open(Path, LongSupplier)}; no reservation ahead while {@code fence} says no. */
  public static ClockHighWaterMark open(
      Path dataDir, LongSupplier wallMillis, HybridClock.Fence fence) {
    FileChannel file;
    long floor;
    try {
      file =
          FileChannel.open(
              dataDir.resolve(FILE),
              StandardOpenOption.CREATE,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      ByteBuffer stored = ByteBuffer.allocate(Long.BYTES);
      floor = file.read(stored, 0) == Long.BYTES ? stored.getLong(0) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the clock's high-water mark in " + dataDir, e);
    }
    long wall = wallMillis.getAsLong();
    if (floor > wall + MAX_START_WAIT_MS) {
      log.warn(
          "this node issued timestamps up to {} ms ahead of its wall clock before it restarted"
              + " (did the clock go back?): its clock continues from there, and stamps no write"
              + " until its wall clock is within the maximum clock offset of that",
          floor - wall);
    } else if (floor > wall) {
      sleep(floor - wall);
      wall = wallMillis.getAsLong();
    }
    long reserved = Math.max(floor, wall) + 2 * HybridClock.RESERVE_AHEAD_MS;
    try {
      write(file, reserved);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot persist the clock's high-water mark", e);
    }
    return new ClockHighWaterMark(file, wallMillis, fence, floor, reserved);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Keeps the reservation ahead of the wall clock, even when no timestamp is issued; not while the
   * clock is fenced (its wall clock may have jumped ahead).
   */
  private void keepAhead() {
    long wall = wallMillis.getAsLong();
    if (reserved - wall < HybridClock.RESERVE_AHEAD_MS && fence.fencedReason() == null) {
      extend(wall + 2 * HybridClock.RESERVE_AHEAD_MS);
    }
  }

  @Override
  public long floorMillis() {
    return floor;
  }

  @Override
  public long reservedMillis() {
    return reserved;
  }

  @Override
  public void extend(long millis) {
    wanted.accumulateAndGet(millis, Math::max);
    if (writing.compareAndSet(false, true)) {
      writer.execute(this::persist);
    }
  }

  /** Writes the wanted mark until nothing more is wanted; one writer at a time. */
  private void persist() {
    try {
      long target;
      while ((target = wanted.get()) > reserved) {
        write(file, target);
        reserved = target;
      }
    } catch (IOException | RuntimeException e) {
      log.warn("could not persist the clock's high-water mark: {}", e.toString());
    } finally {
      writing.set(false);
    }
  }

  /** Writes the 8 bytes in place (one sector: never torn) and syncs them. */
  private static void write(FileChannel file, long millis) throws IOException {
    file.write(ByteBuffer.allocate(Long.BYTES).putLong(0, millis), 0);
    file.force(false);
  }

  /** Stops the writer, then closes the file. */
  @Override
  public void close() {
    writer.shutdown();
    try {
      writer.awaitTermination(2, TimeUnit.SECONDS);
      file.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      log.warn("could not close the clock's high-water mark: {}", e.toString());
    }
  }
}
