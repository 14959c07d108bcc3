package dev.dht.operator.rbac;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.javaoperatorsdk.operator.junit.LocallyRunOperatorExtension;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The chart's RBAC against the calls the operator makes: every operator test runs its operator as
 * the chart's ServiceAccount and records its calls ({@link ChartRbacOperator}); this class runs
 * after all of them in the same JVM ({@code @Order}, {@code junit-platform.properties}) and checks
 * that the chart allows every call and that every rule it grants is used, or says here why not. Run
 * it together with them: {@code mvn test -pl operator}, or {@code -Dtest='*OperatorTest,
 * OperatorMainRbacTest,ChartRbacTest'}.
 */
@Order(Integer.MAX_VALUE)
class ChartRbacTest {
  /**
   * Rules the chart grants that no test reaches, and why the operator needs them: {@code verb
   * group/resource} as {@link ApiCall#permission()} names it. A rule the tests do exercise must not
   * be here.
   */
  static final Map<String, String> NOT_REACHED =
      Map.of(
          "update coordination.k8s.io/leases",
          "JOSDK's leader election refuses to start without it"
              + " (LeaderElectionManager.checkLeaseAccess); Fabric8 renews with a patch",
          "get batch/jobs",
          "DhtLoadTestReconciler.existingJob: a Job the status names and the informer has not"
              + " seen yet (a restart, a slow watch)",
          "create authentication.k8s.io/tokenreviews",
          "the report site (ReportSite): its tests run it against the apiserver with an admin's"
              + " client and two namespaces, outside this recording; the e2e asks kubectl auth"
              + " can-i for it as the operator",
          "create authorization.k8s.io/subjectaccessreviews",
          "the report site, as above");

  /**
   * The names of the operator's Secrets: a cluster's secret, CA, published CA certificate, node TLS
   * and users file, a DhtUser's token and client certificate, and a load test's control token.
   */
  private static final Pattern OWN_SECRET =
      Pattern.compile(".+-(secret|ca|ca-cert|node-tls|users|token|tls|control)");

  private static final JavaClasses TEST_CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
          .importPackages("dev.dht.operator");

  @Test
  void everyOperatorTestRunsUnderTheChartsRules() {
    noClasses()
        .that()
        .doNotBelongToAnyOf(ChartRbacOperator.class)
        .should()
        .callMethod(LocallyRunOperatorExtension.class, "builder")
        .because("ChartRbacOperator.builder() runs the operator with the chart's RBAC")
        .check(TEST_CLASSES);
  }

  @Test
  void theChartAllowsEveryCallTheOperatorMade() {
    var disallowed = new TreeMap<String, String>();
    for (var recording : recordings()) {
      for (var call : recording.calls()) {
        if (call.refused() || !recording.chart().allows(call)) {
          disallowed.putIfAbsent(call.permission(), call + " (" + recording.testClass() + ")");
        }
      }
    }
    assertThat(disallowed)
        .as(
            "calls the chart's rules (charts/dht/templates/_helpers.tpl, dht.rules) do not allow, or"
                + " the apiserver refused (403; a patch or update that creates needs create too)")
        .isEmpty();
  }

  @Test
  void theOperatorMakesACallOfEveryKindTheChartAllows() {
    System.out.println(
        "calls recorded, per kind: "
            + calls()
                .collect(
                    Collectors.groupingBy(
                        ApiCall::permission, TreeMap::new, Collectors.counting())));
    Set<String> missing = new TreeSet<>(operatorTests());
    recordings().forEach(r -> missing.remove(r.testClass()));
    assertThat(missing)
        .as(
            "operator tests that recorded no calls in this JVM; run them with this class (mvn test"
                + " -pl operator), else the unused rules are not known")
        .isEmpty();
    var unused =
        chartRules().stream()
            .filter(single -> calls().noneMatch(single::covers))
            .map(RbacRule::permission)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(unused)
        .as(
            "rules of the chart that no test used: drop them, or say in NOT_REACHED why the"
                + " operator needs them")
        .containsExactlyInAnyOrderElementsOf(NOT_REACHED.keySet());
  }

  @Test
  void secretsAreReadByTheOperatorsNamesOnly() {
    var others =
        calls()
            .filter(c -> "secrets".equals(c.resource()) && c.name() != null)
            .filter(c -> !OWN_SECRET.matcher(c.name()).matches())
            .map(ApiCall::toString)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(others).as("Secrets of names the operator does not make").isEmpty();
  }

  @Test
  void secretsAreListedAndWatchedOnlyByTheOperatorsLabel() {
    var unlabelled =
        calls()
            .filter(c -> "secrets".equals(c.resource()))
            .filter(c -> c.verb().equals("list") || c.verb().equals("watch"))
            .filter(c ->
                c.labelSelector() == null
                    || !c.labelSelector().contains("app.kubernetes.io/managed-by=dht-operator"))
            .map(ApiCall::toString)
            .collect(Collectors.toCollection(TreeSet::new));
    assertThat(unlabelled)
        .as("RBAC cannot narrow list/watch of secrets: the operator must, by its label")
        .isEmpty();
  }

  /** The operator runs of this JVM: none means the operator tests did not run before. */
  private static List<Recordings.Recording> recordings() {
    var recordings = Recordings.all();
    assertThat(recordings)
        .as("operator runs recorded in this JVM (run this class with the operator tests)")
        .isNotEmpty();
    return recordings;
  }

  private static Stream<ApiCall> calls() {
    return recordings().stream().flatMap(r -> r.calls().stream());
  }

  /** The chart's rules split per verb, group and resource (the same in every recording). */
  private static Set<RbacRule> chartRules() {
    return recordings().getFirst().chart().rules().stream()
        .flatMap(rule -> rule.singles().stream())
        .collect(Collectors.toSet());
  }

  /** Test classes (top level) that run an operator through {@link ChartRbacOperator}. */
  private static Set<String> operatorTests() {
    return Stream.of(ChartRbacOperator.class, ChartRbacOperator.Run.class)
        .flatMap(helper -> TEST_CLASSES.get(helper).getAccessesToSelf().stream())
        .map(access -> topLevel(access.getOriginOwner()))
        .filter(c -> !c.getPackageName().equals(ChartRbacOperator.class.getPackageName()))
        .map(JavaClass::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static JavaClass topLevel(JavaClass c) {
    return c.getEnclosingClass().map(ChartRbacTest::topLevel).orElse(c);
  }
}
