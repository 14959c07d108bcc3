package dev.dht.node.repair;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How far a repair or stream run got, persisted so that a run interrupted by a restart resumes:
 * when it began, the peers it completed, and the peer it was receiving from with the last key
 * received. Only the peers named done are skipped on resume: a peer that failed is pulled from
 * again, whatever its place in the order (a stream that skipped it would be reported complete
 * without its keys, and clean-up would then drop their last other copies).
 */
record RunProgress(long startedMillis, Set<String> done, String peer, byte[] lastKey) {
  private static final byte FORMAT = (byte) 0xff; // an older format began with a length's high byte

  /** A run that begins now. */
  static RunProgress begin(long startedMillis) {
    return new RunProgress(startedMillis, Set.of(), null, null);
  }

  /** Where to start pulling from {@code peer}: null to skip it, else the first key to ask. */
  byte[] startFor(String peer) {
    if (done.contains(peer)) {
      return null;
    }
    return peer.equals(this.peer) ? RepairApi.after(lastKey) : new byte[0];
  }

  /** Whether the run resumes one that was interrupted. */
  boolean resumed() {
    return !done.isEmpty() || peer != null;
  }

  RunProgress received(String peer, byte[] lastKey) {
    return new RunProgress(startedMillis, done, peer, lastKey);
  }

  RunProgress completed(String peer) {
    Set<String> all = new LinkedHashSet<>(done);
    all.add(peer);
    return new RunProgress(startedMillis, Set.copyOf(all), null, null);
  }

  byte[] encode() {
    List<byte[]> names = new ArrayList<>();
    done.forEach(p -> names.add(utf8(p)));
    byte[] current = peer == null ? new byte[0] : utf8(peer);
    byte[] key = lastKey == null ? new byte[0] : lastKey;
    int size = 1 + 8 + 2 + names.stream().mapToInt(n -> 2 + n.length).sum() + 2 + current.length;
    ByteBuffer out = ByteBuffer.allocate(size + key.length);
    out.put(FORMAT).putLong(startedMillis).putShort((short) names.size());
    names.forEach(n -> out.putShort((short) n.length).put(n));
    out.putShort((short) current.length).put(current).put(key);
    return out.array();
  }

  /** The progress {@link #encode()} wrote; null if none or not of this format. */
  static RunProgress decode(byte[] bytes) {
    if (bytes == null || bytes.length < 13 || bytes[0] != FORMAT) {
      return null;
    }
    ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
    long started = in.getLong();
    Set<String> done = new LinkedHashSet<>();
    for (int n = in.getShort() & 0xffff; n > 0; n--) {
      done.add(string(in));
    }
    String peer = string(in);
    byte[] key = new byte[in.remaining()];
    in.get(key);
    return new RunProgress(
        started, Set.copyOf(done), peer.isEmpty() ? null : peer, peer.isEmpty() ? null : key);
  }

  private static String string(ByteBuffer in) {
    byte[] bytes = new byte[in.getShort() & 0xffff];
    in.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
