package dev.dht.node.bootstrap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Whose data a data directory holds: the member ({@code self}, its URL) that wrote it, and the last
 * membership epoch in which it was a member. Kept in a small text file, {@value #FILE}, next to the
 * database. A directory of another member (a claim attached to the wrong pod, a copied volume), or
 * one whose member was removed and added back since (a claim kept by a scale-down and reused) may
 * hold values whose deletes the others have purged meanwhile: such data is checked against its
 * peers before it serves ({@link Start}).
 */
public record DataIdentity(String self, long epoch) {
  static final String FILE = "IDENTITY";

  /**
   * What an identity file that cannot be parsed stands for: nobody's, so checked like another's.
   */
  static final DataIdentity UNREADABLE = new DataIdentity("", -1);

  /** What a node starts on. */
  public enum Start {
    /** No database: a new or lost volume. */
    EMPTY,
    /** Its own data, a member ever since (or a directory of a version that kept no identity). */
    CONTINUOUS,
    /** Its own data, but the membership changed since it was last a member. */
    RETURNING,
    /** Another member's data. */
    FOREIGN
  }

  /** What a node that is {@code self} at {@code epoch} starts on. */
  public static Start classify(
      boolean hasDatabase, DataIdentity recorded, String self, long epoch) {
    if (!hasDatabase) {
      return Start.EMPTY;
    }
    if (recorded == null) {
      return Start.CONTINUOUS;
    }
    if (!recorded.self().equals(self)) {
      return Start.FOREIGN;
    }
    return recorded.epoch() == epoch ? Start.CONTINUOUS : Start.RETURNING;
  }

  String text() {
    return "# whose data this directory holds (dht); do not edit\nself "
        + self
        + "\nepoch "
        + epoch
        + "\n";
  }

  /** Parses {@link #text()}; null if it is not an identity. */
  static DataIdentity parse(String text) {
    String self = null;
    long epoch = -1;
    for (String line : text.split("\n")) {
      String[] words = line.strip().split(" ", 2);
      if (words.length == 2 && words[0].equals("self")) {
        self = words[1];
      } else if (words.length == 2 && words[0].equals("epoch")) {
        try {
          epoch = Long.parseLong(words[1]);
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return self == null || epoch < 0 ? null : new DataIdentity(self, epoch);
  }

  /**
   * The identity recorded in {@code dataDir}; null if none, {@link #UNREADABLE} if it cannot be
   * parsed. Blocking: for start-up.
   */
  public static DataIdentity read(Path dataDir) {
    Path file = dataDir.resolve(FILE);
    try {
      if (!Files.exists(file)) {
        return null;
      }
      DataIdentity identity = parse(Files.readString(file));
      return identity == null ? UNREADABLE : identity;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Records this identity in {@code dataDir}, atomically. Blocking: call on a worker. */
  public void write(Path dataDir) {
    try {
      Files.createDirectories(dataDir);
      Path next = dataDir.resolve(FILE + ".next");
      Files.writeString(next, text());
      Files.move(next, dataDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot record the data directory's identity", e);
    }
  }
}
