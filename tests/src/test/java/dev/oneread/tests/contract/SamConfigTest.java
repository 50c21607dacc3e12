package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateParameters;
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
    /** How a value left for the operator to fill in starts. */
    private static final String SET_ME = "SET-ME";
    /** Hosts that name no real service (RFC 2606, RFC 6761): a prod value pointing at one is a leftover example. */
    private static final Pattern NOT_REAL = Pattern.compile(
            "(?i)localhost|127\\.0\\.0\\.1|\\bexample\\.(com|net|org)\\b|\\.(test|example|invalid)\\b|http://");

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
                if (value.startsWith(SET_ME)) {
                    // a value left for the operator: the template must refuse it, so nothing deploys until it is set
                    assertThat(TemplateParameters.refusal(template, name, value))
                            .as(what)
                            .isNotNull();
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

    // Guards issue 37: [prod] held a localhost callback URL and oncall@example.com, which deploy and then send
    // users and alarms nowhere, and no write-concurrency cap or table caps.
    @Test
    void prod_shouldHoldOnlyRealSettingsOrRequiredPrompts() throws IOException {
        Map<String, String> prod =
                overrides(Files.readAllLines(root.resolve("samconfig.toml"))).get("prod");
        // THEN every value is either a real setting the template takes, or a SET-ME prompt the template refuses
        prod.forEach((name, value) -> {
            String what = "prod: " + name + "=" + value;
            String refusal = TemplateParameters.refusal(template, name, value);
            if (value.startsWith(SET_ME)) {
                assertThat(refusal)
                        .as(what + " (a prompt must fail the deploy until it is set)")
                        .isNotNull();
            } else {
                assertThat(refusal).as(what).isNull();
                assertThat(NOT_REAL.matcher(value).find())
                        .as(what + " names no real host")
                        .isFalse();
            }
        });
        // AND a parameter with no default, or whose default is a development value, is given
        template.parameters().forEach((name, definition) -> {
            if (!definition.containsKey("Default")) {
                assertThat(prod)
                        .as("prod must give " + name + ", which has no default")
                        .containsKey(name);
            }
        });
        assertThat(prod).containsKeys("IdentityCallbackUrl", "AlarmEmail", "RedriveOperatorArns");
        // AND prod caps its writes and its table, and asks every user for a second factor
        for (String cap :
                List.of("WriteReservedConcurrency", "TableMaxReadRequestUnits", "TableMaxWriteRequestUnits")) {
            assertThat(prod).as(cap).containsKey(cap);
            assertThat(Integer.parseInt(prod.get(cap))).as(cap).isPositive();
        }
        assertThat(prod).containsEntry("IdentityMfa", "ON");
        assertThat(overrides(Files.readAllLines(root.resolve("samconfig.toml"))).get("dev"))
                .containsEntry("IdentityMfa", "OPTIONAL");
        // AND the template itself refuses the example values the prompts replace
        assertThat(TemplateParameters.refusal(template, "AlarmEmail", "oncall@example.com"))
                .isNotNull();
        assertThat(TemplateParameters.refusal(template, "AlarmEmail", "oncall@oneread.dev"))
                .isNull();
        assertThat(TemplateParameters.refusal(template, "IdentityCallbackUrl", "https://app.example.com/callback"))
                .isNotNull();
        assertThat(TemplateParameters.refusal(template, "IdentityCallbackUrl", "https://app.oneread.dev/callback"))
                .isNull();
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
