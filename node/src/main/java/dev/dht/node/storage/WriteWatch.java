package dev.dht.node.storage;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The keys written to a store since the watch was opened ({@link Storage#watchWrites}), up to a
 * limit of bytes: past it, or after writes it cannot name (an ingest), it knows only that it lost
 * track. So a record read after it opened is still the stored one if {@link #maybeWritten} says no,
 * without a read. Fed and asked under the store's write lock; close it.
 */
public final class WriteWatch implements AutoCloseable {
  /** What a key costs in the set besides its bytes (the buffer, the array, the set's entry). */
  private static final int ENTRY_BYTES = 96;

  private final Set<ByteBuffer> keys = new HashSet<>();
  private final long limitBytes;
  private final Consumer<WriteWatch> onClose;
  private long bytes;
  private boolean lost;

  WriteWatch(long limitBytes, Consumer<WriteWatch> onClose) {
    this.limitBytes = limitBytes;
    this.onClose = onClose;
  }

  void written(ByteBuffer key) {
    if (!lost && keys.add(key)) {
      bytes += key.remaining() + ENTRY_BYTES;
      if (bytes > limitBytes) {
        lose();
      }
    }
  }

  /** Writes happened that it cannot name. */
  void lose() {
    lost = true;
    keys.clear();
  }

  /** Whether it lost track: then every key may have been written. */
  boolean lost() {
    return lost;
  }

  /** Whether {@code key} may have been written since the watch opened. */
  boolean maybeWritten(byte[] key) {
    return lost || keys.contains(ByteBuffer.wrap(key));
  }

  @Override
  public void close() {
    onClose.accept(this);
  }
}
