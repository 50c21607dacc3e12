package dev.oneread.tests.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.platform.commons.annotation.Testable;

/**
 * The fast loop ({@code mvn -B -Pfast verify}) leaves out the tests tagged browser and process, so a test class that
 * reaches a browser or starts a process of its own, seen in its compiled code, must carry the tag: on the class, or
 * (for a process) on the methods that start one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestTagsTest {
    /** The calls that start a dynalite of the test's own, beside the suite's engine. */
    private static final Set<String> ENGINE_STARTS = Set.of(
            DynaliteEngine.class.getName() + ".start",
            TestEngine.class.getName() + ".withLimits",
            TestEngine.class.getName() + ".preloaded",
            TestEngine.class.getName() + ".onData");
    /** The tests' browser, named rather than referenced: a reference would make this class depend on it. */
    private static final String CHROMIUM = "dev.oneread.tests.support.Chromium";
    /** Test classes whose processes are bash scripts (a workflow step, the expr CLI's shell), neither JVM nor node. */
    private static final Set<String> BASH_ONLY =
            Set.of("dev.oneread.tests.contract.DeployWorkflowTest", "dev.oneread.tests.runner.ExprCommandTest");

    private List<JavaClass> testClasses;

    @BeforeAll
    void importTestClasses() {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                .importPackages("dev.oneread.tests");
        testClasses = classes.stream()
                .filter(type ->
                        type.getMethods().stream().anyMatch(method -> method.isMetaAnnotatedWith(Testable.class)))
                .toList();
    }

    @Test
    void importedTestClasses_shouldIncludeTheBrowserAndProcessTests() {
        // A rule over an empty import would pass for nothing.
        assertThat(testClasses)
                .extracting(JavaClass::getSimpleName)
                .contains("ConsoleBrowserTest", "StartApiProcessTest", "FaultsTest", "RouteTestsTest");
    }

    @Test
    void aTestClassThatDrivesABrowser_shouldBeTaggedBrowser() {
        List<String> untagged = testClasses.stream()
                .filter(type -> type.getDirectDependenciesFromSelf().stream()
                        .map(dependency -> dependency.getTargetClass())
                        .anyMatch(target -> target.getPackageName().startsWith("org.openqa.selenium")
                                || target.getName().equals(CHROMIUM)))
                .filter(type -> !type.isAnnotatedWith(UsesBrowser.class))
                .map(JavaClass::getName)
                .toList();

        assertThat(untagged)
                .as("test classes using Selenium or Chromium without @UsesBrowser")
                .isEmpty();
    }

    @Test
    void aTestClassThatStartsAProcess_shouldBeTaggedProcess_onTheClassOrAMethod() {
        List<String> untagged = testClasses.stream()
                .filter(type -> startsEngine(type) || startsProcess(type) && !BASH_ONLY.contains(type.getName()))
                .filter(type -> !tagged(type, StartsProcesses.class))
                .map(JavaClass::getName)
                .toList();

        assertThat(untagged)
                .as("test classes starting a dynalite or a process of their own without @StartsProcesses")
                .isEmpty();
    }

    private static boolean startsEngine(JavaClass type) {
        return type.getMethodCallsFromSelf().stream()
                .anyMatch(call -> ENGINE_STARTS.contains(
                        call.getTargetOwner().getName() + "." + call.getTarget().getName()));
    }

    private static boolean startsProcess(JavaClass type) {
        return type.getMethodCallsFromSelf().stream()
                .anyMatch(call -> call.getTargetOwner().isEquivalentTo(ProcessBuilder.class)
                        && call.getTarget().getName().equals("start"));
    }

    private static boolean tagged(JavaClass type, Class<? extends Annotation> tag) {
        return type.isAnnotatedWith(tag) || type.getMethods().stream().anyMatch(method -> method.isAnnotatedWith(tag));
    }
}
