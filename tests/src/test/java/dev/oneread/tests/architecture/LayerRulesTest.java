package dev.oneread.tests.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The dependency rules of ARCHITECTURE.md ("Rules that keep it livable"), checked on the compiled main
 * classes of shared, every function and local, which are all on this module's test classpath.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LayerRulesTest {
    private static final String LOCAL = "dev.oneread.local..";
    private static final String FUNCTIONS = "dev.oneread.functions..";
    private static final String[] SHARED = {
        "dev.oneread.keys..",
        "dev.oneread.json..",
        "dev.oneread.expr..",
        "dev.oneread.model..",
        "dev.oneread.store..",
        "dev.oneread.operations..",
        "dev.oneread.http..",
        "dev.oneread.jobs..",
        "dev.oneread.secrets..",
        "dev.oneread.runtime..",
        "dev.oneread.priming.."
    };
    private static final String STORE_INTERNAL = "dev.oneread.store.internal..";

    private JavaClasses main;

    @BeforeAll
    void importMainClasses() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.oneread");
    }

    @Test
    void importedClasses_shouldBeTheRealMainClassesOfEveryLayer() {
        // A rule over an empty or partial import would pass for nothing.
        assertThat(main.contain(dev.oneread.local.Main.class)).isTrue();
        assertThat(main.contain(dev.oneread.keys.KeyCodec.class)).isTrue();
        assertThat(main.contain(dev.oneread.expr.KeyCondition.class)).isTrue();
        assertThat(main.contain(dev.oneread.store.ControlPlaneStore.class)).isTrue();
        assertThat(main.contain(dev.oneread.http.HttpEndpoint.class)).isTrue();
        assertThat(main.contain(dev.oneread.jobs.TaskQueue.class)).isTrue();
        assertThat(main.contain(dev.oneread.secrets.CursorKeySecret.class)).isTrue();
        assertThat(main.contain("dev.oneread.store.internal.StoreCalls")).isTrue();
        assertThat(main.stream()
                        .map(JavaClass::getPackageName)
                        .filter(p -> p.startsWith("dev.oneread.functions."))
                        .distinct())
                .hasSize(18); // 13 routes, 4 jobs, the user pool's trigger
        assertThat(main.stream().map(JavaClass::getPackageName)).noneMatch(p -> p.startsWith("dev.oneread.tests"));
    }

    @Test
    void local_shouldNeverDependOnFunctions() {
        check(noClasses()
                .that()
                .resideInAPackage(LOCAL)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(FUNCTIONS)
                .because("local/ loads each function from its own artifact, as Lambda does"));
    }

    @Test
    void functions_shouldNeverDependOnLocal() {
        check(noClasses()
                .that()
                .resideInAPackage(FUNCTIONS)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(LOCAL)
                .because("local/ (the runner, the catalogue of access patterns and its cost budgets) is never in a"
                        + " function zip: CatalogueTest looks inside the zips"));
    }

    @Test
    void shared_shouldDependOnNeitherLocalNorFunctions() {
        check(noClasses()
                .that()
                .resideInAnyPackage(SHARED)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(LOCAL, FUNCTIONS)
                .because("shared/ is the ground floor: both top floors stand on it"));
    }

    @Test
    void keys_shouldDependOnNothingOfTheProjectOutsideKeys() {
        check(dependsOnNothingOfTheProjectBut("dev.oneread.keys..")
                .because("the key codec imports nothing from the rest"));
    }

    @Test
    void expr_shouldDependOnNothingOfTheProjectOutsideExpr() {
        check(dependsOnNothingOfTheProjectBut("dev.oneread.expr..")
                .because("the expression builder knows attribute names and values, nothing about workspaces"));
    }

    @Test
    void store_shouldNeverDependOnHttp() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.oneread.store..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.oneread.http..")
                .because("http maps the store's exceptions, never the other way round"));
    }

    @Test
    void operations_shouldStandBelowTheFacadeTheFeaturesHttpRuntimeAndPriming() {
        check(noClasses()
                .that()
                .resideInAPackage("dev.oneread.operations..")
                .should()
                .dependOnClassesThat(resideInAnyPackage(
                                "dev.oneread.store.purge..",
                                "dev.oneread.store.migration..",
                                "dev.oneread.store.backfill..",
                                "dev.oneread.store.stats..",
                                "dev.oneread.store.report..",
                                "dev.oneread.store.idempotency..",
                                "dev.oneread.http..",
                                "dev.oneread.runtime..",
                                "dev.oneread.priming..",
                                "dev.oneread.jobs..")
                        .or(JavaClass.Predicates.equivalentTo(dev.oneread.store.ControlPlaneStore.class)))
                .because("an operation builds requests and decodes answers; the facade and the features call it,"
                        + " never the other way round"));
    }

    @Test
    void storeInternals_shouldBeUsedOnlyByTheStore() {
        check(noClasses()
                .that()
                .resideOutsideOfPackages("dev.oneread.store..", "dev.oneread.operations..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(STORE_INTERNAL)
                .because("store.internal is the plumbing of the store's features and operations; the rest of the code"
                        + " goes through"
                        + " the store's public API"));
    }

    @Test
    void functions_shouldNotDependOnEachOther() {
        check(slices().matching("dev.oneread.functions.(*)..")
                .should()
                .notDependOnEachOther()
                .because("each function is its own artifact; what two need belongs in shared/"));
    }

    private static ArchRule dependsOnNothingOfTheProjectBut(String layer) {
        return noClasses()
                .that()
                .resideInAPackage(layer)
                .should()
                .dependOnClassesThat(resideInAPackage("dev.oneread..").and(not(resideInAPackage(layer))));
    }

    private void check(ArchRule rule) {
        rule.check(main);
    }
}
