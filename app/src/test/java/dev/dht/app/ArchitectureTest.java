package dev.dht.app;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The house rules of the store, the load generator and the jar above them, checked on their
 * compiled classes: no package imports another that imports it back (directly or around a circle),
 * the store and the generator do not know each other, the generator's engine knows none of its
 * other packages (reports, control, warm-up, commands), and metrics know no domain package (each
 * component binds its own meters).
 */
class ArchitectureTest {
  /** Main classes only: this module's tests and the node's test-jar are not the product. */
  private static final ImportOption PRODUCTION =
      location -> !location.contains("/test-classes/") && !location.contains("-tests.jar");

  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(PRODUCTION)
          .importPackages("dev.dht.contract", "dev.dht.node", "dev.dht.loadgen", "dev.dht.app");

  @Test
  void noPackageCycles() {
    // every package its own slice: dev.dht.node, dev.dht.node.cluster, dev.dht.loadgen.engine, ...
    slices().matching("dev.dht.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void theStoreDoesNotDependOnTheLoadGenerator() {
    noClasses()
        .that()
        .resideInAPackage("dev.dht.node..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.dht.loadgen..", "dev.dht.app..")
        .check(CLASSES);
  }

  @Test
  void theLoadGeneratorDoesNotDependOnTheStore() {
    noClasses()
        .that()
        .resideInAPackage("dev.dht.loadgen..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.dht.node..", "dev.dht.app..")
        .check(CLASSES);
  }

  @Test
  void theContractStandsAlone() {
    noClasses()
        .that()
        .resideInAPackage("dev.dht.contract..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.dht.node..", "dev.dht.loadgen..", "dev.dht.app..")
        .check(CLASSES);
  }

  @Test
  void theLoadGeneratorsEngineKnowsNoneOfItsOtherPackages() {
    noClasses()
        .that()
        .resideInAPackage("dev.dht.loadgen.engine..")
        .should()
        .dependOnClassesThat(
            resideInAPackage("dev.dht.loadgen..")
                .and(resideOutsideOfPackage("dev.dht.loadgen.engine..")))
        .check(CLASSES);
  }

  @Test
  void metricsKnowNoDomainPackage() {
    noClasses()
        .that()
        .resideInAPackage("dev.dht.node.metrics..")
        .should()
        .dependOnClassesThat()
        .resideOutsideOfPackages("dev.dht.node.metrics..", "java..", "io.micrometer..")
        .check(CLASSES);
  }
}
