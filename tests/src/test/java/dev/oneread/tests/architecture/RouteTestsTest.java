package dev.oneread.tests.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A route's integration tests are one class, named after its function: {@code routes/GetProjectTest} for GetProject,
 * so a route's test is one class name away, as its handler ({@code functions/get-project}) is one folder away.
 */
class RouteTestsTest {
    private final Path root = ProjectRoot.find();

    @Test
    void routesPackage_shouldHoldOneTestClassPerHttpApiFunction_namedAfterIt() throws IOException {
        // GIVEN every function template.yaml routes an HttpApi event to
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        List<String> routed = template.resourcesOfType("AWS::Serverless::Function").entrySet().stream()
                .filter(function -> hasHttpApiEvent(function.getValue()))
                .map(function -> function.getKey() + "Test")
                .toList();
        // WHEN the route tests' package is listed
        Path routes = root.resolve("tests/src/test/java/dev/oneread/tests/routes");
        List<String> classes;
        try (Stream<Path> files = Files.exists(routes) ? Files.list(routes) : Stream.empty()) {
            classes = files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".java"))
                    .map(name -> name.substring(0, name.length() - ".java".length()))
                    .toList();
        }
        // THEN it holds exactly one class per route, and nothing else
        assertThat(routed).as("template.yaml's HttpApi functions").hasSizeGreaterThan(10);
        assertThat(classes)
                .as("the classes of tests/.../routes against template.yaml's HttpApi functions")
                .containsExactlyInAnyOrderElementsOf(routed);
    }

    private static boolean hasHttpApiEvent(Map<String, Object> function) {
        Map<String, Object> properties = SamTemplate.map(function.get("Properties"));
        return SamTemplate.map(properties.get("Events")).values().stream()
                .anyMatch(event -> "HttpApi".equals(SamTemplate.map(event).get("Type")));
    }
}
