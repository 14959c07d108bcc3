package dev.dht.node.auth;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The key prefixes one user is granted one operation on: a key is covered if its bytes start with
 * the UTF-8 bytes of one of them (the empty prefix covers every key). Keys are compared as bytes,
 * not as text, so a prefix means exactly the keys the storage orders under it. Immutable, so every
 * event loop reads it without locks; its checks allocate nothing.
 */
public final class KeyPrefixes {
  private final List<String> texts;
  private final byte[][] prefixes;

  /** Per prefix, the first key after every key that starts with it (null: there is none). */
  private final byte[][] ends;

  private final boolean everyKey;

  private KeyPrefixes(List<String> texts) {
    this.texts = List.copyOf(texts);
    this.prefixes = new byte[texts.size()][];
    this.ends = new byte[texts.size()][];
    for (int i = 0; i < prefixes.length; i++) {
      prefixes[i] = texts.get(i).getBytes(StandardCharsets.UTF_8);
      ends[i] = firstKeyAfter(prefixes[i]);
    }
    this.everyKey = texts.contains("");
  }

  /** The prefixes, in the order given (repeats dropped). */
  public static KeyPrefixes of(Collection<String> prefixes) {
    return new KeyPrefixes(prefixes.stream().distinct().toList());
  }

  /** Whether {@code key} starts with one of the prefixes. */
  public boolean covers(byte[] key) {
    if (everyKey) {
      return true;
    }
    for (byte[] prefix : prefixes) {
      if (startsWith(key, prefix)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every key of the range from {@code start} (included) to {@code end} (excluded; null: to
   * the last key) starts with one prefix: {@code start} starts with it and {@code end} is at most
   * the first key after all of its keys (it starts with the prefix, or it is that first key after,
   * or, an empty range, below). So a range without an end needs a prefix with no key after it: the
   * empty prefix (the only one among UTF-8 prefixes, as UTF-8 has no byte 0xFF).
   */
  public boolean coversRange(byte[] start, byte[] end) {
    if (everyKey) {
      return true;
    }
    for (int i = 0; i < prefixes.length; i++) {
      if (startsWith(start, prefixes[i])
          && (ends[i] == null || (end != null && Arrays.compareUnsigned(end, ends[i]) <= 0))) {
        return true;
      }
    }
    return false;
  }

  /** The prefixes as text, for the reason of a refusal: {@code [app/, shared/]}. */
  @Override
  public String toString() {
    return texts.toString();
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  /** The first key after every key that starts with {@code prefix}; null if there is none. */
  static byte[] firstKeyAfter(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xff) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }
}
