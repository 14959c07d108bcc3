package dev.dht.contract;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dht.contract.UsersDocument.Acl;
import dev.dht.contract.UsersDocument.Authentication;
import dev.dht.contract.UsersDocument.Operation;
import dev.dht.contract.UsersDocument.User;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The JSON of a {@link UsersDocument}, read field by field so that every refusal says what is wrong
 * and where ({@code users[2].acls[0].operations[1]: ...}): the document is an access list, and its
 * author must be able to fix it from the node's answer or log alone.
 */
final class UsersDocumentJson {
  /** Duplicate keys are refused: in an access list, "the last one wins" hides mistakes. */
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private UsersDocumentJson() {}

  /** {@code document} as JSON. */
  static String write(UsersDocument document) {
    ObjectNode root = JSON.createObjectNode();
    root.put("revision", document.revision())
        .put("authentication", document.authentication().label());
    ArrayNode userNodes = root.putArray("users");
    for (User user : document.users()) {
      ObjectNode node = userNodes.addObject().put("name", user.name());
      if (user.tokenSha256() != null) {
        node.put("tokenSha256", user.tokenSha256());
      }
      if (user.certificateCommonName() != null) {
        node.put("certificateCommonName", user.certificateCommonName());
      }
      ArrayNode aclNodes = node.putArray("acls");
      for (Acl acl : user.acls()) {
        ArrayNode operations =
            aclNodes.addObject().put("prefix", acl.prefix()).putArray("operations");
        // in a fixed order: the same document is the same text
        acl.operations().stream().sorted().map(Operation::label).forEach(operations::add);
      }
      if (user.requestsPerSecond() > 0) {
        node.put("requestsPerSecond", user.requestsPerSecond());
      }
    }
    return root.toString();
  }

  /** The document {@code json} holds; an {@link IllegalArgumentException} says what is wrong. */
  static UsersDocument read(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), null);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    long revision = longField(root, "revision", "revision", true);
    Authentication authentication =
        switch (textField(root, "authentication", "authentication", true)) {
          case "required" -> Authentication.REQUIRED;
          case "none" -> Authentication.NONE;
          default ->
              throw new IllegalArgumentException(
                  "authentication: must be \"required\" or \"none\"");
        };
    List<User> users = new ArrayList<>();
    JsonNode userNodes = array(root, "users", "users");
    for (int i = 0; i < userNodes.size(); i++) {
      users.add(user(userNodes.get(i), "users[" + i + "]"));
    }
    return new UsersDocument(revision, authentication, users);
  }

  private static User user(JsonNode node, String where) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(where + ": not a JSON object");
    }
    List<Acl> acls = new ArrayList<>();
    JsonNode aclNodes = array(node, "acls", where + ".acls");
    for (int i = 0; i < aclNodes.size(); i++) {
      acls.add(acl(aclNodes.get(i), where + ".acls[" + i + "]"));
    }
    String name = textField(node, "name", where + ".name", true);
    String token = textField(node, "tokenSha256", where + ".tokenSha256", false);
    String commonName =
        textField(node, "certificateCommonName", where + ".certificateCommonName", false);
    long rate = longField(node, "requestsPerSecond", where + ".requestsPerSecond", false);
    try {
      return new User(name, token, commonName, acls, rate);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), null);
    }
  }

  private static Acl acl(JsonNode node, String where) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(where + ": not a JSON object");
    }
    String prefix = textField(node, "prefix", where + ".prefix", true);
    Set<Operation> operations = new HashSet<>();
    JsonNode names = array(node, "operations", where + ".operations");
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i).isTextual() ? names.get(i).textValue() : "";
      operations.add(
          switch (name) {
            case "read" -> Operation.READ;
            case "write" -> Operation.WRITE;
            case "delete" -> Operation.DELETE;
            case "range" -> Operation.RANGE;
            default ->
                throw new IllegalArgumentException(
                    where
                        + ".operations["
                        + i
                        + "]: not one of \"read\", \"write\", \"delete\", \"range\"");
          });
    }
    return new Acl(prefix, operations);
  }

  /** A text field; absent (or null) gives null unless {@code required}. */
  private static String textField(JsonNode node, String field, String where, boolean required) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      if (required) {
        throw new IllegalArgumentException(where + ": missing");
      }
      return null;
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException(where + ": not a string");
    }
    return value.textValue();
  }

  /** A whole number field; absent (or null) gives 0 unless {@code required}. */
  private static long longField(JsonNode node, String field, String where, boolean required) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      if (required) {
        throw new IllegalArgumentException(where + ": missing");
      }
      return 0;
    }
    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new IllegalArgumentException(where + ": not a whole number");
    }
    return value.longValue();
  }

  /** An array field; absent (or null) is empty. */
  private static JsonNode array(JsonNode node, String field, String where) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return JSON.createArrayNode();
    }
    if (!value.isArray()) {
      throw new IllegalArgumentException(where + ": not an array");
    }
    return value;
  }
}
