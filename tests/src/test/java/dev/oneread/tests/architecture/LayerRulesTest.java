package dev.oneread.tests.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The dependency rules of docs/testing.md ("Layers"), checked on the compiled main
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
        "dev.oneread.priming..",
        "dev.oneread.function.."
    };
    private static final String STORE_INTERNAL = "dev.oneread.store.internal..";

    /**
     * shared's packages, from the ground up: each layer may use the tiers below its own, and nothing else, so no
     * two layers of one tier use each other (the store's features among them).
     */
    private static final List<List<Layer>> SHARED_TIERS = List.of(
            List.of(new Layer(
                    "core", "dev.oneread.keys..", "dev.oneread.json..", "dev.oneread.model..", "dev.oneread.expr..")),
            List.of(new Layer("store.exceptions", "dev.oneread.store.exceptions..")),
            List.of(new Layer("store.items", "dev.oneread.store.items..")),
            List.of(new Layer("store.calls", "dev.oneread.store.calls..")),
            List.of(new Layer("store.internal", STORE_INTERNAL)),
            // An operation per access pattern (issue 39): above the plumbing, below the features and the facade.
            List.of(Layer.expected("operations", "dev.oneread.operations..")),
            List.of(
                    new Layer("store.idempotency", "dev.oneread.store.idempotency.."),
                    new Layer("store.stats", "dev.oneread.store.stats.."),
                    new Layer("store.purge", "dev.oneread.store.purge.."),
                    new Layer("store.migration", "dev.oneread.store.migration.."),
                    new Layer("store.backfill", "dev.oneread.store.backfill..")),
            List.of(new Layer("store", "dev.oneread.store")),
            List.of(new Layer("runtime", "dev.oneread.runtime..")),
            List.of(
                    new Layer("http", "dev.oneread.http.."),
                    new Layer("jobs", "dev.oneread.jobs.."),
                    new Layer("secrets", "dev.oneread.secrets..")),
            List.of(new Layer("priming", "dev.oneread.priming..")),
            List.of(new Layer("function", "dev.oneread.function..")));

    /**
     * local's packages, from the ground up: the engine's wrappers use neither the runner nor the console, the
     * runner uses the engine, the console uses both, and the command line puts them together.
     */
    private static final List<List<Layer>> LOCAL_TIERS = List.of(
            List.of(
                    new Layer("template", "dev.oneread.local", "dev.oneread.local.template.."),
                    new Layer("engine", "dev.oneread.local.engine.."),
                    new Layer("auth", "dev.oneread.local.auth.."),
                    new Layer("catalogue", "dev.oneread.local.catalogue.."),
                    new Layer("expr", "dev.oneread.local.expr..")),
            List.of(new Layer("iam", "dev.oneread.local.iam..")),
            List.of(new Layer("runner", "dev.oneread.local.runner..")),
            List.of(new Layer("console", "dev.oneread.local.console..")),
            List.of(new Layer("cli", "dev.oneread.local.cli..")));

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
        assertThat(main.contain(dev.oneread.local.cli.Main.class)).isTrue();
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

    @Test
    void packages_shouldBeFreeOfCycles() {
        check(slices().matching("dev.oneread.(**)")
                .should()
                .beFreeOfCycles()
                .because("a package that imports another, and is imported back by it, is one room with two doors: "
                        + "layers are what a reader can take in one at a time"));
    }

    @Test
    void shared_shouldUseOnlyTheLayersBelowEachPackage() {
        check(tiered(SHARED_TIERS)
                .because("the store's plumbing stands below its features, the features below the facade that"
                        + " composes them, and runtime, http and priming above it all"));
    }

    @Test
    void local_shouldUseOnlyTheLayersBelowEachPackage() {
        check(tiered(LOCAL_TIERS)
                .because("the engine knows no runner, the runner no console: each can be read and tested alone"));
    }

    /**
     * One layer of a tiered rule: its name, and its packages as ArchUnit matches them. A layer with no class fails
     * the rule, unless it is expected: one that is still to come, checked as soon as it is there.
     */
    private record Layer(String name, boolean optional, String... packages) {
        Layer(String name, String... packages) {
            this(name, false, packages);
        }

        static Layer expected(String name, String... packages) {
            return new Layer(name, true, packages);
        }
    }

    /** A layered architecture where each layer may access the layers of the tiers below its own, and no other. */
    private static LayeredArchitecture tiered(List<List<Layer>> tiers) {
        LayeredArchitecture rule = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (List<Layer> tier : tiers) {
            for (Layer layer : tier) {
                rule = (layer.optional() ? rule.optionalLayer(layer.name()) : rule.layer(layer.name()))
                        .definedBy(layer.packages());
            }
        }
        List<String> below = new ArrayList<>();
        for (List<Layer> tier : tiers) {
            for (Layer layer : tier) {
                rule = below.isEmpty()
                        ? rule.whereLayer(layer.name()).mayNotAccessAnyLayer()
                        : rule.whereLayer(layer.name()).mayOnlyAccessLayers(below.toArray(String[]::new));
            }
            tier.forEach(layer -> below.add(layer.name()));
        }
        return rule;
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
