package dev.dht.contract;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Who may use a cluster's client API, and how much: the users document the operator writes (into a
 * Secret every node re-reads, and pushed to {@code PUT /v0/admin/users}) and every node enforces.
 *
 * <pre>{@code
 * {"revision": 7, "authentication": "required",
 *  "users": [{"name": "app", "tokenSha256": "<64 lowercase hex>",
 *             "certificateCommonName": "dht-user.app",
 *             "acls": [{"prefix": "app/", "operations": ["read", "write", "delete", "range"]}],
 *             "requestsPerSecond": 200}]}
 * }</pre>
 *
 * <p>A node applies a document only if its {@code revision} is higher than the one in force, so the
 * file and the push may race in any order. A user authenticates with a bearer token (the document
 * holds only its SHA-256, so a leaked document leaks no token) or with a client certificate of the
 * cluster's CA whose subject CN is its {@code certificateCommonName} ({@code dht-user.<name>}); its
 * ACLs grant operations on the keys that start with a prefix (empty: every key); {@code
 * requestsPerSecond} (0: none) is a quota per node. Unknown fields are ignored (a newer operator
 * may add some); anything else that is not as described rejects the whole document, with the
 * reason, and the one in force stays: a half-understood access list must never be applied.
 */
public record UsersDocument(long revision, Authentication authentication, List<User> users) {
  /** Whether a node asks its clients who they are. */
  public enum Authentication {
    /** Every client request needs a user's credentials. */
    REQUIRED,
    /** No client request does; the users are ignored (as on a node without a users document). */
    NONE;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What an ACL may grant, by HTTP request: GET, PUT and DELETE of one key, GET of a range. */
  public enum Operation {
    READ,
    WRITE,
    DELETE,
    RANGE;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The operations granted on the keys that start with {@code prefix} (its UTF-8 bytes). */
  public record Acl(String prefix, Set<Operation> operations) {
    public Acl {
      if (prefix == null) {
        throw new IllegalArgumentException("prefix: missing (\"\" grants every key)");
      }
      operations = Set.copyOf(operations);
    }
  }

  /**
   * A user: its name (in answers and logs), its credentials (a token's SHA-256 as 64 lowercase hex
   * digits, a certificate's subject CN, or both), its ACLs, and its quota per node ({@code 0}:
   * none).
   */
  public record User(
      String name,
      String tokenSha256,
      String certificateCommonName,
      List<Acl> acls,
      long requestsPerSecond) {
    public User {
      requireText("name", name, MAX_NAME_CHARS);
      if (tokenSha256 == null && certificateCommonName == null) {
        throw new IllegalArgumentException(
            "user "
                + name
                + " has no credentials: give tokenSha256, certificateCommonName or both");
      }
      if (tokenSha256 != null && !SHA256_HEX.matcher(tokenSha256).matches()) {
        throw new IllegalArgumentException(
            "user " + name + ": tokenSha256 must be 64 lowercase hex digits (a SHA-256)");
      }
      if (certificateCommonName != null) {
        requireText("certificateCommonName", certificateCommonName, MAX_NAME_CHARS);
        if (!isUserCommonName(certificateCommonName)) {
          throw new IllegalArgumentException(
              "user "
                  + name
                  + ": certificateCommonName must be "
                  + USER_COMMON_NAME_PREFIX
                  + "<name without spaces> (a user's certificate is never a node's)");
        }
      }
      acls = List.copyOf(acls);
      if (requestsPerSecond < 0 || requestsPerSecond > MAX_REQUESTS_PER_SECOND) {
        throw new IllegalArgumentException(
            "user "
                + name
                + ": requestsPerSecond must be 0 (no quota) to "
                + MAX_REQUESTS_PER_SECOND
                + ", got "
                + requestsPerSecond);
      }
    }
  }

  /** How the common name of every user's certificate starts: {@link #isUserCommonName}. */
  public static final String USER_COMMON_NAME_PREFIX = "dht-user.";

  private static final Pattern USER_COMMON_NAME = Pattern.compile("dht-user\\.\\S+");

  /**
   * Whether a certificate's common name is a client user's: {@code dht-user.} and a name without
   * whitespace. Users' certificates are issued by the cluster's CA, which the nodes also trust for
   * each other: a node refuses such a certificate as a peer's or an admin's, and a user's {@code
   * certificateCommonName} must be such a name (the nodes' own, {@code <cluster>.<namespace> dht
   * node}, never is).
   */
  public static boolean isUserCommonName(String commonName) {
    return USER_COMMON_NAME.matcher(commonName).matches();
  }

  /** The most a document may take, in bytes of JSON (the size a node's push takes). */
  public static final int MAX_BYTES = 4 << 20;

  /** A quota above this is no quota any node could reach; refused as a likely mistake. */
  public static final long MAX_REQUESTS_PER_SECOND = 1_000_000_000L;

  private static final int MAX_NAME_CHARS = 253;
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  public UsersDocument {
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be 0 or more, got " + revision);
    }
    if (authentication == null) {
      throw new IllegalArgumentException("authentication: missing (\"required\" or \"none\")");
    }
    users = List.copyOf(users);
    requireUnique(users);
  }

  private static void requireUnique(List<User> users) {
    Set<String> names = new HashSet<>();
    Set<String> tokens = new HashSet<>();
    Set<String> commonNames = new HashSet<>();
    for (User user : users) {
      if (!names.add(user.name())) {
        throw new IllegalArgumentException("two users are named " + user.name());
      }
      if (user.tokenSha256() != null && !tokens.add(user.tokenSha256())) {
        throw new IllegalArgumentException(
            "user " + user.name() + " has the tokenSha256 of another user");
      }
      if (user.certificateCommonName() != null && !commonNames.add(user.certificateCommonName())) {
        throw new IllegalArgumentException(
            "user " + user.name() + " has the certificateCommonName of another user");
      }
    }
  }

  private static void requireText(String field, String value, int maxChars) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(field + ": missing or empty");
    }
    if (value.length() > maxChars) {
      throw new IllegalArgumentException(field + ": longer than " + maxChars + " characters");
    }
    if (value.chars().anyMatch(c -> c < 0x20 || c == 0x7F)) {
      throw new IllegalArgumentException(field + ": has a control character");
    }
  }

  /**
   * The SHA-256 of a token's UTF-8 bytes, as {@code tokenSha256} holds it: what the operator writes
   * for a token it hands out, and what a node compares a bearer token with.
   */
  public static String sha256Hex(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is a mandatory JDK algorithm", e);
    }
  }

  /** The document as JSON; {@link #parse} reads it back equal. */
  public String toJson() {
    return UsersDocumentJson.write(this);
  }

  /**
   * Reads a document; an {@link IllegalArgumentException} says what is wrong with it and where
   * ({@code users[2].acls[0].operations: ...}).
   */
  public static UsersDocument parse(String json) {
    return UsersDocumentJson.read(json);
  }
}
