package dev.dht.operator.users;

import dev.dht.contract.UsersDocument;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;

/**
 * The users file the operator writes for a cluster's nodes: the contract's {@link UsersDocument}
 * made from the cluster's DhtUsers and their tokens (only each token's SHA-256 goes in), under a
 * revision that moves only when the content does. Pure.
 */
public final class UsersFile {
  /** The key of the document in the cluster's users Secret. */
  public static final String KEY = "users.json";

  private UsersFile() {}

  /** The name of the Secret with the users file of the cluster {@code cluster}. */
  public static String secretName(String cluster) {
    return cluster + "-users";
  }

  /**
   * A user and its token, as the cluster's reconciler found them; {@code certificate}: the nodes
   * also admit the user's client certificate ({@link UserCertificate#commonName}).
   */
  public record Holder(DhtUser user, String token, boolean certificate) {}

  /**
   * The document for {@code mode} and {@code holders}, under its revision: that of {@code
   * previousJson} (the document last written; null: none) if the content is the same and no node
   * holds a higher one, else one above both that and {@code highestHeld} (the highest revision a
   * node reported): a lost or damaged file never makes the nodes keep an older document.
   */
  public static UsersDocument next(
      Authentication mode, List<Holder> holders, String previousJson, long highestHeld) {
    var users =
        holders.stream()
            .map(UsersFile::entry)
            .sorted(Comparator.comparing(UsersDocument.User::name))
            .toList();
    var authentication =
        mode == Authentication.Required
            ? UsersDocument.Authentication.REQUIRED
            : UsersDocument.Authentication.NONE;
    long previous = revisionOf(previousJson);
    if (previous >= 0 && previous >= highestHeld) {
      var same = new UsersDocument(previous, authentication, users);
      if (same.toJson().equals(previousJson)) {
        return same;
      }
    }
    return new UsersDocument(
        Math.max(Math.max(previous, highestHeld), 0) + 1, authentication, users);
  }

  /** The revision of a document written before; -1 for none or one that cannot be read. */
  public static long revisionOf(String json) {
    if (json == null) {
      return -1;
    }
    try {
      return UsersDocument.parse(json).revision();
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** Whether the document {@code json} admits {@code user} with the token {@code token}. */
  public static boolean admits(String json, String user, String token) {
    try {
      String hash = UsersDocument.sha256Hex(token);
      return UsersDocument.parse(json).users().stream()
          .anyMatch(u -> u.name().equals(user) && hash.equals(u.tokenSha256()));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static UsersDocument.User entry(Holder holder) {
    var spec = holder.user().getSpec();
    var quota = spec.getQuota();
    var acls =
        (spec.getAcls() == null ? List.<Acl>of() : spec.getAcls())
            .stream()
                .map(acl ->
                    new UsersDocument.Acl(
                        acl.getPrefix() == null ? "" : acl.getPrefix(), operations(acl)))
                .toList();
    return new UsersDocument.User(
        holder.user().getMetadata().getName(),
        UsersDocument.sha256Hex(holder.token()),
        holder.certificate() ? UserCertificate.commonName(holder.user()) : null,
        acls,
        quota == null || quota.getRequestsPerSecond() == null ? 0 : quota.getRequestsPerSecond());
  }

  private static EnumSet<UsersDocument.Operation> operations(Acl acl) {
    var set = EnumSet.noneOf(UsersDocument.Operation.class);
    for (Operation operation : acl.getOperations()) {
      set.add(
          switch (operation) {
            case Read -> UsersDocument.Operation.READ;
            case Write -> UsersDocument.Operation.WRITE;
            case Delete -> UsersDocument.Operation.DELETE;
            case Range -> UsersDocument.Operation.RANGE;
          });
    }
    return set;
  }
}
