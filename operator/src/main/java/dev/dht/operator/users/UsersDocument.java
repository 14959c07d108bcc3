package dev.dht.operator.users;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * What a cluster's nodes know of its users: whether they demand credentials, and for each user the
 * SHA-256 of its token (never the token), its ACLs and its quota. The nodes read it from a file
 * (the Secret {@code <cluster>-users}) and from the operator's pushes, and apply a document only if
 * its {@code revision} is higher than the one in force: so a stale file never undoes a push. Pure:
 * building, comparing and writing it.
 */
public record UsersDocument(long revision, Authentication authentication, List<Entry> users) {
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  public UsersDocument {
    users = users.stream().sorted(Comparator.comparing(Entry::name)).toList();
  }

  /** One user as the nodes see it; {@code requestsPerSecond} 0: no quota. */
  public record Entry(String name, String tokenSha256, List<Acl> acls, int requestsPerSecond) {
    public Entry {
      acls = List.copyOf(acls);
    }

    /** The entry of {@code user}, whose token is {@code token}. */
    public static Entry of(DhtUser user, String token) {
      var spec = user.getSpec();
      var quota = spec.getQuota();
      return new Entry(
          user.getMetadata().getName(),
          sha256(token),
          spec.getAcls() == null ? List.of() : spec.getAcls(),
          quota == null || quota.getRequestsPerSecond() == null ? 0 : quota.getRequestsPerSecond());
    }
  }

  /**
   * This document under its revision: that of {@code previousJson} (the document last written;
   * null: none) if the content is the same and no node holds a higher one, else one above both that
   * and {@code highestHeld} (the highest revision a node reported): a lost or damaged file never
   * makes the nodes keep an older document.
   */
  public UsersDocument after(String previousJson, long highestHeld) {
    long previous = previousJson == null ? -1 : revisionOf(previousJson);
    if (previous >= 0 && previous >= highestHeld) {
      var same = withRevision(previous);
      if (same.toJson().equals(previousJson)) {
        return same;
      }
    }
    return withRevision(Math.max(Math.max(previous, highestHeld), 0) + 1);
  }

  private UsersDocument withRevision(long next) {
    return new UsersDocument(next, authentication, users);
  }

  /** The document as the nodes read it. */
  public String toJson() {
    ObjectNode root = JSON.createObjectNode();
    root.put("revision", revision);
    root.put("authentication", authentication.wireName());
    ArrayNode list = root.putArray("users");
    for (Entry user : users) {
      ObjectNode node = list.addObject();
      node.put("name", user.name());
      node.put("tokenSha256", user.tokenSha256());
      ArrayNode acls = node.putArray("acls");
      for (Acl acl : user.acls()) {
        ObjectNode rule = acls.addObject();
        rule.put("prefix", acl.getPrefix() == null ? "" : acl.getPrefix());
        ArrayNode operations = rule.putArray("operations");
        acl.getOperations().stream().distinct().sorted().forEach(o -> operations.add(o.wireName()));
      }
      if (user.requestsPerSecond() > 0) {
        node.put("requestsPerSecond", user.requestsPerSecond());
      }
    }
    try {
      return JSON.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The revision of a document the operator wrote before, or -1 if it cannot be read. */
  public static long revisionOf(String json) {
    try {
      var node = JSON.readTree(json);
      return node != null && node.path("revision").canConvertToLong()
          ? node.path("revision").asLong()
          : -1;
    } catch (JsonProcessingException e) {
      return -1;
    }
  }

  /**
   * Whether the document {@code json} (as written) admits {@code user} with the token whose hash is
   * {@code tokenSha256}.
   */
  public static boolean admits(String json, String user, String tokenSha256) {
    try {
      for (var entry : JSON.readTree(json).path("users")) {
        if (user.equals(entry.path("name").asText())
            && tokenSha256.equals(entry.path("tokenSha256").asText())) {
          return true;
        }
      }
      return false;
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  /** Lower-case hex of the SHA-256 of the token's UTF-8 bytes. */
  public static String sha256(String token) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
