package dev.dht.contract;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The members file the operator publishes in a cluster's ConfigMap and every node re-reads: {@code
 * epoch N} (optional, default 0), {@code replication ACK/FROM} (optional: the defaults of requests
 * that name no ack or from; else the node's flags), {@code next-replication ACK/FROM} (optional,
 * during a change of the defaults: those of the next ring), {@code read-from next} (optional,
 * during a change), then one member a line, its URL and, after a space, its state ({@code joining}
 * or {@code leaving}; none: normal), then its zone ({@code zone=NAME}; none: the zone of every
 * member without one) and, during a change of zones, its zone in the next ring ({@code
 * next-zone=NAME}; none: the same; {@code next-zone=-}: none in the next ring). Placement spreads a
 * key's replicas over the zones. Blank lines and lines starting with '#' are ignored, so a plain
 * list of URLs is a membership of epoch 0.
 */
public record MembersFile(
    long epoch,
    Replication replication,
    Replication nextReplication,
    boolean readNext,
    List<Member> members) {
  public enum State {
    NORMAL,
    JOINING,
    LEAVING,
    /** Leaving, and gone for good: nothing waits for it, its keys come from the other replicas. */
    LOST
  }

  /**
   * A member: its URL, its state, its zone (null: none) and its zone in the next ring (null: the
   * same; {@link #NO_ZONE}: none).
   */
  public record Member(String url, State state, String zone, String nextZone) {
    public Member {
      requireZone(zone);
      if (!NO_ZONE.equals(nextZone)) {
        requireZone(nextZone);
      }
      if (nextZone != null && nextZone.equals(zone) || NO_ZONE.equals(nextZone) && zone == null) {
        nextZone = null;
      }
    }

    public Member(String url, State state, String zone) {
      this(url, state, zone, null);
    }

    public Member(String url, State state) {
      this(url, state, null, null);
    }

    /** Its zone in the next ring (null: none). */
    public String zoneNext() {
      return NO_ZONE.equals(nextZone) ? null : nextZone != null ? nextZone : zone;
    }

    private static void requireZone(String zone) {
      if (zone != null && !isZone(zone)) {
        throw new IllegalArgumentException(
            "a zone is 1 to 63 letters, digits, '-', '_' or '.', starting and ending with a letter"
                + " or digit (a Kubernetes label value), got '"
                + zone
                + "'");
      }
    }
  }

  private static final Pattern ZONE =
      Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
  private static final String ZONE_PREFIX = "zone=";

  /** As a member's next zone: it has none in the next ring (a zone taken away). */
  public static final String NO_ZONE = "-";

  /** Whether {@code name} can be a zone: a Kubernetes label value that is not empty. */
  public static boolean isZone(String name) {
    return ZONE.matcher(name).matches();
  }

  private static final String NEXT_ZONE_PREFIX = "next-zone=";

  /** Default ack and from, {@code 1 <= ack <= from}. */
  public record Replication(int ack, int from) {
    public Replication {
      if (ack < 1 || ack > from) {
        throw new IllegalArgumentException("replication needs 1 <= ack <= from, got " + this);
      }
    }

    static Replication parse(String[] words, String line) {
      String[] numbers = words.length == 2 ? words[1].split("/") : new String[0];
      if (numbers.length != 2
          || !numbers[0].matches("[0-9]{1,6}")
          || !numbers[1].matches("[0-9]{1,6}")) {
        throw new IllegalArgumentException(
            "expected '" + words[0] + " ACK/FROM', got '" + line + "'");
      }
      return new Replication(Integer.parseInt(numbers[0]), Integer.parseInt(numbers[1]));
    }

    @Override
    public String toString() {
      return ack + "/" + from;
    }
  }

  private static final List<String> STATES = List.of("normal", "joining", "leaving", "lost");

  public MembersFile {
    members = List.copyOf(members);
    if (nextReplication != null && replication == null) {
      throw new IllegalArgumentException("next-replication needs a replication");
    }
  }

  /** A membership that leaves the replication defaults to the nodes' flags. */
  public MembersFile(long epoch, boolean readNext, List<Member> members) {
    this(epoch, null, null, readNext, members);
  }

  public List<String> urls() {
    return members.stream().map(Member::url).toList();
  }

  public String write() {
    var out = new StringBuilder("epoch ").append(epoch).append('\n');
    if (replication != null) {
      out.append("replication ").append(replication).append('\n');
    }
    if (nextReplication != null) {
      out.append("next-replication ").append(nextReplication).append('\n');
    }
    if (readNext) {
      out.append("read-from next\n");
    }
    for (Member member : members) {
      out.append(member.url());
      if (member.state() != State.NORMAL) {
        out.append(' ').append(member.state().name().toLowerCase(Locale.ROOT));
      }
      if (member.zone() != null) {
        out.append(' ').append(ZONE_PREFIX).append(member.zone());
      }
      if (member.nextZone() != null) {
        out.append(' ').append(NEXT_ZONE_PREFIX).append(member.nextZone());
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** The file's content; an {@link IllegalArgumentException} names a line it cannot read. */
  public static MembersFile parse(String content) {
    long epoch = 0;
    boolean readNext = false;
    Replication replication = null;
    Replication nextReplication = null;
    var members = new ArrayList<Member>();
    for (String line : lines(content)) {
      String[] words = line.split("\\s+");
      if (words[0].equals("epoch")) {
        if (words.length != 2) {
          throw new IllegalArgumentException("expected 'epoch N', got '" + line + "'");
        }
        epoch = Long.parseLong(words[1]);
      } else if (words[0].equals("replication")) {
        replication = Replication.parse(words, line);
      } else if (words[0].equals("next-replication")) {
        nextReplication = Replication.parse(words, line);
      } else if (words[0].equals("read-from")) {
        if (words.length != 2 || !(words[1].equals("next") || words[1].equals("current"))) {
          throw new IllegalArgumentException(
              "expected 'read-from next|current', got '" + line + "'");
        }
        readNext = words[1].equals("next");
      } else {
        members.add(member(words, line));
      }
    }
    return new MembersFile(epoch, replication, nextReplication, readNext, members);
  }

  /** {@code URL [joining|leaving|lost] [zone=NAME] [next-zone=NAME|-]} */
  private static Member member(String[] words, String line) {
    int at = 1;
    State state = State.NORMAL;
    if (at < words.length && STATES.contains(words[at])) {
      state = State.valueOf(words[at++].toUpperCase(Locale.ROOT));
    }
    String zone = null;
    if (at < words.length && words[at].startsWith(ZONE_PREFIX)) {
      zone = words[at++].substring(ZONE_PREFIX.length());
    }
    String nextZone = null;
    if (at < words.length && words[at].startsWith(NEXT_ZONE_PREFIX)) {
      nextZone = words[at++].substring(NEXT_ZONE_PREFIX.length());
    }
    if (at != words.length) {
      throw new IllegalArgumentException(
          "expected 'URL [joining|leaving|lost] [zone=NAME] [next-zone=NAME|-]', got '"
              + line
              + "'");
    }
    return new Member(words[0], state, zone, nextZone);
  }

  private static List<String> lines(String content) {
    return Arrays.stream(content.split("\\R"))
        .map(String::strip)
        .filter(line -> !line.isEmpty() && !line.startsWith("#"))
        .toList();
  }
}
