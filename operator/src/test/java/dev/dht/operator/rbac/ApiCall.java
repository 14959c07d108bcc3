package dev.dht.operator.rbac;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One request of the operator's client as the apiserver's authorizer sees it: the RBAC verb, API
 * group, resource (with its subresource, {@code pods/eviction}), namespace (null: cluster-scoped or
 * all namespaces) and object name; the label selector of a list or watch; the answer's status. A
 * request to no resource (discovery, {@code /version}) has a null resource and keeps its path.
 */
public record ApiCall(
    String verb,
    String group,
    String resource,
    String namespace,
    String name,
    String labelSelector,
    String path,
    int status) {

  /** The call of an HTTP request to the apiserver, as the authorizer names it. */
  public static ApiCall of(String method, URI uri, int status) {
    String path = uri.getRawPath();
    List<String> segments =
        Arrays.stream(path.split("/"))
            .filter(s -> !s.isEmpty())
            .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8))
            .toList();
    String group;
    List<String> rest;
    if (segments.size() > 2 && segments.get(0).equals("api")) {
      group = ""; // /api/v1/...
      rest = segments.subList(2, segments.size());
    } else if (segments.size() > 3 && segments.get(0).equals("apis")) {
      group = segments.get(1); // /apis/<group>/<version>/...
      rest = segments.subList(3, segments.size());
    } else {
      return new ApiCall(
          method.toLowerCase(Locale.ROOT), null, null, null, null, null, path, status);
    }
    String namespace = null;
    if (rest.get(0).equals("namespaces") && rest.size() > 2) {
      namespace = rest.get(1); // /namespaces/<ns>/<resource>...; /namespaces/<name> is a Namespace
      rest = rest.subList(2, rest.size());
    }
    String name = rest.size() > 1 ? rest.get(1) : null;
    String resource = rest.size() > 2 ? rest.get(0) + "/" + rest.get(2) : rest.get(0);
    var query = query(uri);
    return new ApiCall(
        verb(method, name != null, query),
        group,
        resource,
        namespace,
        name,
        query.get("labelSelector"),
        path,
        status);
  }

  /** The RBAC verb of an HTTP method on a collection ({@code named} false) or an object. */
  static String verb(String method, boolean named, Map<String, String> query) {
    return switch (method) {
      case "GET", "HEAD" ->
          "true".equals(query.get("watch")) || "1".equals(query.get("watch"))
              ? "watch"
              : named ? "get" : "list";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> named ? "delete" : "deletecollection";
      default -> method.toLowerCase(Locale.ROOT); // none of RBAC's: no rule allows it
    };
  }

  /**
   * The verbs the apiserver authorizes: the verb, and create for a patch or an update that created
   * the object (201; a server-side apply of a new object needs both).
   */
  public List<String> verbs() {
    return status == 201 && (verb.equals("patch") || verb.equals("update"))
        ? List.of(verb, "create")
        : List.of(verb);
  }

  public boolean isResource() {
    return resource != null;
  }

  /** Refused by the authorizer (403). */
  public boolean refused() {
    return status == 403;
  }

  /** What RBAC rules name: {@code verb group/resource}, e.g. {@code patch apps/statefulsets}. */
  public String permission() {
    return isResource()
        ? verb + " " + (group.isEmpty() ? "" : group + "/") + resource
        : verb + " " + path;
  }

  @Override
  public String toString() {
    return permission()
        + (namespace == null ? " (all namespaces or cluster-scoped)" : " in " + namespace)
        + (name == null ? "" : " name=" + name)
        + (labelSelector == null ? "" : " labelSelector=" + labelSelector)
        + " -> "
        + status;
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> query = new HashMap<>();
    String raw = uri.getRawQuery();
    if (raw == null) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      query.put(
          URLDecoder.decode(key, StandardCharsets.UTF_8),
          URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return query;
  }
}
