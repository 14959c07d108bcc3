package dev.dht.operator.rbac;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.awaitility.Awaitility;

/**
 * The chart's RBAC ({@code charts/dht}, rendered by {@code helm template}) for an operator released
 * into {@code namespace} that watches only that namespace: its ServiceAccount, the Roles and
 * ClusterRoles bound to it, and the rules those grant it. Installed into a test namespace, the
 * operator's client impersonates that ServiceAccount ({@link ApiCallRecorder}), so that the
 * apiserver refuses whatever the chart does not allow.
 */
public final class ChartRbac {
  static final List<String> KINDS =
      List.of("ServiceAccount", "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding");

  /**
   * What the apiserver's default ClusterRoles allow every authenticated user (system:basic-user:
   * the self reviews, JOSDK's leader election asks one at its start).
   */
  static final List<RbacRule> EVERY_USER =
      List.of(
          new RbacRule(
              List.of("authorization.k8s.io"),
              List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews"),
              List.of("create"),
              null,
              null),
          new RbacRule(
              List.of("authentication.k8s.io"),
              List.of("selfsubjectreviews"),
              List.of("create"),
              null,
              null));

  /** Paths of no resource every authenticated user may GET (system:discovery). */
  static final List<String> DISCOVERY = List.of("/api", "/apis", "/version", "/openapi");

  private final String namespace;
  private final String serviceAccount;
  private final List<HasMetadata> objects;
  private final List<RbacRule> rules;

  private ChartRbac(
      String namespace, String serviceAccount, List<HasMetadata> objects, List<RbacRule> rules) {
    this.namespace = namespace;
    this.serviceAccount = serviceAccount;
    this.objects = objects;
    this.rules = rules;
  }

  /** The chart rendered for {@code namespace}, as for the apiserver of {@code client}. */
  public static ChartRbac render(KubernetesClient client, String namespace) {
    String yaml =
        Helm.template(
            releaseName(namespace),
            "--kube-version",
            client.getKubernetesVersion().getGitVersion(),
            "--namespace",
            namespace,
            "--set",
            "watchNamespaces={" + namespace + "}");
    var objects =
        client.load(new ByteArrayInputStream(yaml.getBytes())).items().stream()
            .filter(o -> KINDS.contains(o.getKind()))
            .toList();
    var accounts = ofKind(objects, ServiceAccount.class).toList();
    if (accounts.size() != 1) {
      throw new IllegalStateException("the chart renders " + accounts.size() + " ServiceAccounts");
    }
    String account = accounts.getFirst().getMetadata().getName();
    return new ChartRbac(namespace, account, objects, boundRules(objects, namespace, account));
  }

  /** Helm release names are at most 53 characters; unique per namespace like cluster names. */
  private static String releaseName(String namespace) {
    return namespace.substring(0, Math.min(53, namespace.length())).replaceAll("-+$", "");
  }

  /** The rules of every Role and ClusterRole bound to the ServiceAccount, where bound. */
  private static List<RbacRule> boundRules(
      List<HasMetadata> objects, String namespace, String account) {
    List<RbacRule> rules = new ArrayList<>();
    ofKind(objects, RoleBinding.class)
        .filter(b -> bindsAccount(b.getSubjects(), namespace, account))
        .forEach(
            b -> rules.addAll(rulesOf(objects, b.getRoleRef(), b.getMetadata().getNamespace())));
    ofKind(objects, ClusterRoleBinding.class)
        .filter(b -> bindsAccount(b.getSubjects(), namespace, account))
        .forEach(b -> rules.addAll(rulesOf(objects, b.getRoleRef(), null)));
    return List.copyOf(rules);
  }

  private static List<RbacRule> rulesOf(List<HasMetadata> objects, RoleRef ref, String where) {
    var policy =
        "Role".equals(ref.getKind())
            ? ofKind(objects, Role.class)
                .filter(
                    r -> named(r, ref.getName()) && where.equals(r.getMetadata().getNamespace()))
                .map(Role::getRules)
            : ofKind(objects, ClusterRole.class)
                .filter(r -> named(r, ref.getName()))
                .map(ClusterRole::getRules);
    var found = policy.findFirst().orElseThrow(() -> new IllegalStateException("no " + ref));
    return found.stream().map(rule -> RbacRule.of(rule, where)).toList();
  }

  private static boolean bindsAccount(List<Subject> subjects, String namespace, String account) {
    return subjects != null
        && subjects.stream()
            .anyMatch(s ->
                "ServiceAccount".equals(s.getKind())
                    && account.equals(s.getName())
                    && namespace.equals(s.getNamespace()));
  }

  private static boolean named(HasMetadata object, String name) {
    return name.equals(object.getMetadata().getName());
  }

  private static <T> Stream<T> ofKind(List<HasMetadata> objects, Class<T> kind) {
    return objects.stream().filter(kind::isInstance).map(kind::cast);
  }

  /**
   * Creates the ServiceAccount, roles and bindings (the namespace exists) and waits until the
   * apiserver's authorizer grants every rule. Cluster-scoped ones are owned by the namespace: the
   * garbage collector deletes them with it.
   */
  public void install(KubernetesClient admin) {
    var owner = admin.namespaces().withName(namespace).get();
    for (var object : objects) {
      if (object instanceof Namespaced) {
        if (object.getMetadata().getNamespace() == null) {
          object.getMetadata().setNamespace(namespace);
        }
      } else {
        object
            .getMetadata()
            .setOwnerReferences(
                List.of(
                    new OwnerReferenceBuilder()
                        .withApiVersion("v1")
                        .withKind("Namespace")
                        .withName(namespace)
                        .withUid(owner.getMetadata().getUid())
                        .build()));
      }
      admin.resource(object).create();
    }
    Awaitility.await("the authorizer grants the chart's rules to " + user())
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(() ->
            rules.stream().map(rule -> rule.singles().getFirst()).allMatch(r -> granted(admin, r)));
  }

  private boolean granted(KubernetesClient admin, RbacRule single) {
    String[] resource = single.resources().getFirst().split("/", 2);
    var review =
        new SubjectAccessReviewBuilder()
            .withNewSpec()
            .withUser(user())
            .withGroups(groups())
            .withNewResourceAttributes()
            .withNamespace(Optional.ofNullable(single.namespace()).orElse(namespace))
            .withVerb(single.verbs().getFirst())
            .withGroup(single.apiGroups().getFirst())
            .withResource(resource[0])
            .withSubresource(resource.length > 1 ? resource[1] : null)
            .withName(single.resourceNames().isEmpty() ? null : single.resourceNames().getFirst())
            .endResourceAttributes()
            .endSpec()
            .build();
    return admin.authorization().v1().subjectAccessReview().create(review).getStatus().getAllowed();
  }

  /** Whether the chart's rules (or the defaults of every authenticated user) allow {@code call}. */
  public boolean allows(ApiCall call) {
    if (!call.isResource()) {
      return call.verb().equals("get")
          && DISCOVERY.stream()
              .anyMatch(p -> call.path().equals(p) || call.path().startsWith(p + "/"));
    }
    return call.verbs().stream()
        .allMatch(verb ->
            Stream.concat(EVERY_USER.stream(), rules.stream()).anyMatch(r -> r.allows(call, verb)));
  }

  public List<RbacRule> rules() {
    return rules;
  }

  public String namespace() {
    return namespace;
  }

  /** The ServiceAccount's user name, as the apiserver names it. */
  public String user() {
    return "system:serviceaccount:" + namespace + ":" + serviceAccount;
  }

  /** The groups of a ServiceAccount's token. */
  public List<String> groups() {
    return List.of(
        "system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated");
  }

  /** {@code helm template} of the chart, with k8s-local's helm when it is not on the PATH. */
  static final class Helm {
    private Helm() {}

    static String template(String release, String... args) {
      var command = new ArrayList<>(List.of(binary(), "template", release, chart().toString()));
      command.addAll(List.of(args));
      try {
        var errors = Files.createTempFile("helm", ".err");
        try {
          var process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
          String out = new String(process.getInputStream().readAllBytes());
          if (process.waitFor() != 0) {
            throw new IllegalStateException(command + " failed: " + Files.readString(errors));
          }
          return out;
        } finally {
          Files.deleteIfExists(errors);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot run " + command, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    /** The chart: the build's dht.chart.dir, else charts/dht next to the operator module. */
    static Path chart() {
      return Path.of(System.getProperty("dht.chart.dir", "../charts/dht"));
    }

    private static String binary() {
      return Stream.of(System.getenv("PATH").split(":"))
          .map(dir -> Path.of(dir, "helm"))
          .filter(Files::isExecutable)
          .findFirst()
          .or(() -> Optional.of(Path.of("/opt/k8s/bin/helm")).filter(Files::isExecutable))
          .map(Path::toString)
          .orElseThrow(() ->
              new IllegalStateException(
                  "helm not found on the PATH nor in /opt/k8s/bin (k8s-local's ensure.sh api"
                      + " installs it)"));
    }
  }
}
