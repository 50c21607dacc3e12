package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.SamTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * samconfig.toml's environments deploy template.yaml: every override names a parameter the template declares (SAM CLI
 * ignores one it does not, so a renamed parameter would silently fall back to its default) with a value the
 * template allows, so that `sam deploy --config-env ...` fails on nothing but the secret's placeholder.
 */
class SamConfigTest {
    /** One {@code "Name=Value"} entry of a {@code parameter_overrides} list. */
    private static final Pattern OVERRIDE = Pattern.compile("^\\s*\"([A-Za-z0-9]+)=([^\"]*)\",?\\s*(#.*)?$");

    private static final Pattern SECTION = Pattern.compile("^\\[(\\w+)\\.deploy\\.parameters\\]\\s*$");
    /** Left for the operator to fill in: the ARN of the environment's cursor-key secret (docs/deploy.md). */
    private static final String PLACEHOLDER = "CursorKeySecret";

    private final Path root = ProjectRoot.find();
    private final SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));

    @Test
    void everyEnvironment_shouldOverrideOnlyDeclaredParameters_withAllowedValues() throws IOException {
        Map<String, Map<String, String>> environments = overrides(Files.readAllLines(root.resolve("samconfig.toml")));

        assertThat(environments).containsOnlyKeys("dev", "prod");
        Map<String, Map<String, Object>> parameters = template.parameters();
        environments.forEach((environment, values) -> {
            assertThat(values).as(environment).containsKey(PLACEHOLDER).containsKey("DeploymentType");
            values.forEach((name, value) -> {
                String what = environment + ": " + name + "=" + value;
                assertThat(parameters).as(what).containsKey(name);
                if (name.equals(PLACEHOLDER)) {
                    return;
                }
                Map<String, Object> parameter = parameters.get(name);
                if (parameter.get("AllowedValues") != null) {
                    assertThat(SamTemplate.list(parameter.get("AllowedValues")).stream()
                                    .map(String::valueOf)
                                    .toList())
                            .as(what)
                            .contains(value);
                }
                if (parameter.get("AllowedPattern") instanceof String pattern) {
                    assertThat(value).as(what).matches(pattern);
                }
                if ("Number".equals(parameter.get("Type"))) {
                    assertThat(value).as(what).matches("-?[0-9]+(\\.[0-9]+)?");
                }
            });
        });
        assertThat(environments.get("dev").get("DeploymentType")).isEqualTo("AllAtOnce");
        assertThat(environments.get("prod").get("DeploymentType")).isNotEqualTo("AllAtOnce");
    }

    /** The overrides of each {@code [env.deploy.parameters]} section, in order. */
    private static Map<String, Map<String, String>> overrides(List<String> lines) {
        Map<String, Map<String, String>> environments = new LinkedHashMap<>();
        Map<String, String> current = null;
        for (String line : lines) {
            Matcher section = SECTION.matcher(line);
            Matcher override = OVERRIDE.matcher(line);
            if (section.matches()) {
                current = new LinkedHashMap<>();
                environments.put(section.group(1), current);
            } else if (override.matches() && current != null) {
                current.put(override.group(1), override.group(2));
            }
        }
        return environments;
    }
}
