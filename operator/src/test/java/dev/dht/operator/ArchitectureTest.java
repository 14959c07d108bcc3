package dev.dht.operator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The operator's house rules, checked on its compiled classes: no package imports another that
 * imports it back (directly or around a circle); the Kubernetes helpers both controllers share
 * ({@code kube}) know neither; and the operator talks to nodes over their HTTP contract, never
 * through the node's classes (the tests run real nodes in-JVM, the product does not).
 */
class ArchitectureTest {
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.dht.operator");

  @Test
  void noPackageCycles() {
    slices().matching("dev.dht.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void theSharedKubernetesHelpersKnowNoController() {
    noClasses()
        .that()
        .resideInAPackage("dev.dht.operator.kube..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.dht.operator",
            "dev.dht.operator.cluster..",
            "dev.dht.operator.loadtest..",
            "dev.dht.operator.rolling..",
            "dev.dht.operator.scaling..")
        .check(CLASSES);
  }

  @Test
  void theOperatorDoesNotUseTheNodesClasses() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.dht.node..", "dev.dht.loadgen..", "dev.dht.app..")
        .check(CLASSES);
  }
}
