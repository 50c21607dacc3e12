package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.TestEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Lambda runtime is one template parameter, chosen by measurement (docs/cold-start.md): every function takes it
 * from Globals, and every runtime it allows can run the code the build compiles.
 */
class FunctionRuntimeTest {
    private final TestEngine engine = TestEngine.get();
    private final SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));

    @Test
    void everyFunction_shouldRunOnTheFunctionRuntimeParameter_whoseRuntimesRunTheCompiledRelease() throws IOException {
        // GIVEN the template's Globals, its functions and the build's compiler release
        Map<String, Object> globals = SamTemplate.map(
                SamTemplate.map(template.document().get("Globals")).get("Function"));
        Map<String, Object> parameter = template.parameters().get("FunctionRuntime");
        Matcher release = Pattern.compile("<maven.compiler.release>(\\d+)</maven.compiler.release>")
                .matcher(Files.readString(engine.root.resolve("pom.xml")));

        // THEN Globals take the runtime from the parameter, and no function overrides it
        assertThat(globals.get("Runtime")).isEqualTo(Map.of("Ref", "FunctionRuntime"));
        template.resourcesOfType("AWS::Serverless::Function")
                .forEach((id, function) -> assertThat(SamTemplate.map(function.get("Properties")))
                        .as(id)
                        .doesNotContainKey("Runtime"));
        // AND it allows the Java runtimes the measurement compared, defaulting to one of them
        assertThat(SamTemplate.list(parameter.get("AllowedValues"))).containsExactly("java21", "java25");
        assertThat(parameter.get("Default")).isIn(SamTemplate.list(parameter.get("AllowedValues")));
        // AND each of them runs the compiled release (a class file of release N runs on any JDK >= N)
        assertThat(release.find()).as("the root pom's compiler release").isTrue();
        int compiled = Integer.parseInt(release.group(1));
        for (Object runtime : SamTemplate.list(parameter.get("AllowedValues"))) {
            assertThat(Integer.parseInt(((String) runtime).substring("java".length())))
                    .as((String) runtime)
                    .isGreaterThanOrEqualTo(compiled);
        }
    }
}
