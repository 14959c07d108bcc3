package dev.dht.node.auth;

import dev.dht.contract.UsersDocument;
import dev.dht.contract.UsersDocument.Authentication;
import dev.dht.contract.UsersDocument.User;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * One users document made ready for the request path: whether clients must authenticate, and the
 * users by token hash and by certificate common name. Immutable: a new document makes a new
 * directory, swapped in whole ({@link UsersInForce}), so a request sees one document or the next,
 * never half of each.
 */
public final class UserDirectory {
  /** A node without a users document: no client authenticates, every one may do anything. */
  public static final UserDirectory OPEN = new UserDirectory(null, Map.of(), Map.of());

  private final UsersDocument document;

  /** Read on every client request: a field, not a look into the document. */
  private final boolean required;

  private final TokenHashes byTokenHash;
  private final Map<String, ClientUser> byCommonName;
  private final Map<String, ClientUser> byName;

  private UserDirectory(
      UsersDocument document,
      Map<byte[], ClientUser> byTokenHash,
      Map<String, ClientUser> byCommonName) {
    this.document = document;
    this.required = document != null && document.authentication() == Authentication.REQUIRED;
    this.byTokenHash = new TokenHashes(byTokenHash);
    this.byCommonName = Map.copyOf(byCommonName);
    Map<String, ClientUser> names = new HashMap<>();
    byTokenHash.values().forEach(user -> names.put(user.name(), user));
    byCommonName.values().forEach(user -> names.put(user.name(), user));
    this.byName = Map.copyOf(names);
  }

  /**
   * The directory of {@code document}. Each user keeps its quota bucket from {@code previous} (if
   * there and at the same rate), so that a new revision does not refill every bucket.
   */
  public static UserDirectory of(
      UsersDocument document, UserDirectory previous, LongSupplier nanoClock) {
    Map<byte[], ClientUser> byTokenHash = new IdentityHashMap<>();
    Map<String, ClientUser> byCommonName = new HashMap<>();
    HexFormat hex = HexFormat.of();
    for (User user : document.users()) {
      ClientUser before = previous == null ? null : previous.byName.get(user.name());
      ClientUser compiled = ClientUser.of(user, before == null ? null : before.quota(), nanoClock);
      if (user.tokenSha256() != null) {
        byTokenHash.put(hex.parseHex(user.tokenSha256()), compiled);
      }
      if (user.certificateCommonName() != null) {
        byCommonName.put(user.certificateCommonName(), compiled);
      }
    }
    return new UserDirectory(document, byTokenHash, byCommonName);
  }

  /** Whether every client request must be a user's. */
  public boolean required() {
    return required;
  }

  /** {@code required} or {@code none}, as the admin status reports it. */
  public String authentication() {
    return (required() ? Authentication.REQUIRED : Authentication.NONE).label();
  }

  /** The document's revision; -1 for a node without one ({@link #OPEN}). */
  public long revision() {
    return document == null ? -1 : document.revision();
  }

  /** The document this directory was made of; null for {@link #OPEN}. */
  public UsersDocument document() {
    return document;
  }

  /** The user whose token's SHA-256 is {@code sha256} (its first 32 bytes); null if none. */
  public ClientUser byTokenHash(byte[] sha256) {
    return byTokenHash.find(sha256);
  }

  /** The user with the certificate common name {@code commonName}; null if none. */
  public ClientUser byCommonName(String commonName) {
    return byCommonName.get(commonName);
  }

  /** Whether any user authenticates with a certificate. */
  public boolean takesCertificates() {
    return !byCommonName.isEmpty();
  }

  /** The users' names, for the log. */
  public List<String> names() {
    return document == null ? List.of() : document.users().stream().map(User::name).toList();
  }
}
