package dev.dht.operator.rbac;

import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One resource rule of a Role or ClusterRole and where its binding grants it: in {@code namespace}
 * (a Role, or a ClusterRole bound by a RoleBinding), or everywhere (null: a ClusterRoleBinding).
 * Judges a call as Kubernetes' RBAC authorizer does: group, resource (with subresource), verb, and
 * the object's name when the rule lists names (then a create, which has no name yet, never
 * matches); {@code *} matches anything.
 */
public record RbacRule(
    List<String> apiGroups,
    List<String> resources,
    List<String> verbs,
    List<String> resourceNames,
    String namespace) {

  public RbacRule {
    apiGroups = List.copyOf(apiGroups);
    resources = List.copyOf(resources);
    verbs = List.copyOf(verbs);
    resourceNames = resourceNames == null ? List.of() : List.copyOf(resourceNames);
  }

  static RbacRule of(PolicyRule rule, String namespace) {
    return new RbacRule(
        rule.getApiGroups(),
        rule.getResources(),
        rule.getVerbs(),
        rule.getResourceNames(),
        namespace);
  }

  /** Whether this rule lets {@code call} through as {@code verb}, where it is granted. */
  public boolean allows(ApiCall call, String verb) {
    return (namespace == null || namespace.equals(call.namespace())) && covers(call, verb);
  }

  /** Whether {@code call} is of this rule's kind, as any of its verbs, wherever it was made. */
  public boolean covers(ApiCall call) {
    return call.verbs().stream().anyMatch(verb -> covers(call, verb));
  }

  private boolean covers(ApiCall call, String verb) {
    return call.isResource()
        && matches(apiGroups, call.group())
        && matches(resources, call.resource())
        && matches(verbs, verb)
        && (resourceNames.isEmpty()
            || (call.name() != null && resourceNames.contains(call.name())));
  }

  /** This rule split into one rule per verb, group and resource: what a test must exercise. */
  public List<RbacRule> singles() {
    List<RbacRule> singles = new ArrayList<>();
    for (String group : apiGroups) {
      for (String resource : resources) {
        for (String verb : verbs) {
          singles.add(
              new RbacRule(
                  List.of(group), List.of(resource), List.of(verb), resourceNames, namespace));
        }
      }
    }
    return singles;
  }

  /** {@code verb group/resource} of a single rule, as {@link ApiCall#permission()} names calls. */
  public String permission() {
    String group = apiGroups.getFirst();
    return verbs.getFirst() + " " + (group.isEmpty() ? "" : group + "/") + resources.getFirst();
  }

  @Override
  public String toString() {
    return "apiGroups="
        + apiGroups
        + " resources="
        + resources
        + " verbs="
        + verbs
        + (resourceNames.isEmpty() ? "" : " resourceNames=" + resourceNames)
        + (namespace == null ? " (cluster-wide)" : " in " + namespace);
  }

  private static boolean matches(List<String> values, String value) {
    return values.contains("*") || values.stream().anyMatch(v -> Objects.equals(v, value));
  }
}
