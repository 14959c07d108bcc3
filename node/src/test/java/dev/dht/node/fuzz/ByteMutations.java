package dev.dht.node.fuzz;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Damaged versions of valid encodings, for decoders of untrusted bytes: random bytes alone rarely
 * get past a decoder's first check, while a valid encoding with a byte flipped, cut short, or with
 * a huge or negative number written over a length field reaches every check behind it.
 */
public final class ByteMutations {
  private ByteMutations() {}

  /** Values written over a 4-byte field: the edges of int lengths, and ones near a body's size. */
  private static final List<Integer> INTERESTING_INTS =
      List.of(
          0,
          1,
          -1,
          Integer.MIN_VALUE,
          Integer.MAX_VALUE,
          Integer.MAX_VALUE - 3,
          Integer.MAX_VALUE - 8,
          0x7fff_fff8,
          0x8000_0004,
          1 << 16,
          1 << 20,
          1 << 30);

  private enum Kind {
    FLIP_BYTE,
    TRUNCATE,
    OVERWRITE_INT,
    INSERT_BYTES,
    DUPLICATE
  }

  private record Mutation(Kind kind, int position, int value, byte[] bytes) {
    byte[] applyTo(byte[] in) {
      int at = in.length == 0 ? 0 : Math.floorMod(position, in.length);
      return switch (kind) {
        case FLIP_BYTE -> {
          if (in.length == 0) {
            yield in;
          }
          byte[] out = in.clone();
          out[at] ^= (byte) (value == 0 ? 1 : value);
          yield out;
        }
        case TRUNCATE -> Arrays.copyOf(in, at);
        case OVERWRITE_INT -> {
          byte[] out = Arrays.copyOf(in, Math.max(in.length, at + 4));
          ByteBuffer.wrap(out).putInt(at, value);
          yield out;
        }
        case INSERT_BYTES -> {
          byte[] out = new byte[in.length + bytes.length];
          System.arraycopy(in, 0, out, 0, at);
          System.arraycopy(bytes, 0, out, at, bytes.length);
          System.arraycopy(in, at, out, at + bytes.length, in.length - at);
          yield out;
        }
        case DUPLICATE -> {
          byte[] out = Arrays.copyOf(in, in.length * 2);
          System.arraycopy(in, 0, out, in.length, in.length);
          yield out;
        }
      };
    }
  }

  private static Arbitrary<Mutation> mutation() {
    Arbitrary<Integer> value =
        Arbitraries.oneOf(Arbitraries.of(INTERESTING_INTS), Arbitraries.integers());
    return Combinators.combine(
            Arbitraries.of(Kind.class),
            Arbitraries.integers().greaterOrEqual(0),
            value,
            Arbitraries.bytes().array(byte[].class).ofMaxSize(8))
        .as(Mutation::new);
  }

  /** {@code valid} encodings with one to three mutations each. */
  public static Arbitrary<byte[]> of(Arbitrary<byte[]> valid) {
    return Combinators.combine(valid, mutation().list().ofMinSize(1).ofMaxSize(3))
        .as((bytes, mutations) -> {
          byte[] out = bytes;
          for (Mutation m : mutations) {
            out = m.applyTo(out);
          }
          return out;
        });
  }

  /** Bytes of no structure at all. */
  public static Arbitrary<byte[]> random() {
    return Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
  }
}
