package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every pattern of openapi.yaml is one that common validators compile. A regex escape of a UTF-16 surrogate
 * (backslash-u D83D, or a range of them) is not a Unicode scalar value: Rust's regex, which jsonschema-rs uses, refuses it
 * ("hexadecimal literal is not a Unicode scalar value"), and such a validator drops the pattern, so the rule it
 * states goes unchecked. Astral characters are spelled as a class of code points (everything outside U+0000 to
 * U+FFFF) instead; {@code TextRulesTest} holds what the patterns accept.
 */
class OpenApiPatternsTest {
    /** Backslash-u followed by a code unit from D800 to DFFF, as a pattern in YAML's single quotes spells it. */
    private static final Pattern SURROGATE_ESCAPE = Pattern.compile("\\\\u[dD][89a-fA-F][0-9a-fA-F]{2}");

    @Test
    void everyPattern_shouldEscapeOnlyUnicodeScalarValues_soThatRustsRegexCompilesIt() throws IOException {
        JsonNode document =
                new YAMLMapper().readTree(Files.readString(ProjectRoot.find().resolve("openapi.yaml")));
        List<String> patterns = new ArrayList<>();
        collect(document, "", patterns);
        assertThat(patterns).as("patterns in openapi.yaml").hasSizeGreaterThanOrEqualTo(5);

        List<String> refused = new ArrayList<>();
        for (String entry : patterns) {
            Matcher surrogate = SURROGATE_ESCAPE.matcher(entry);
            if (surrogate.find()) {
                refused.add(entry.substring(0, entry.indexOf(" = ")) + " escapes the surrogate " + surrogate.group());
            }
        }
        assertThat(refused)
                .as("patterns a validator built on Rust's regex refuses (hexadecimal literal is not a Unicode scalar"
                        + " value) and drops")
                .isEmpty();
    }

    /** Each {@code pattern} string under {@code node}, as "where = pattern". */
    private static void collect(JsonNode node, String where, List<String> patterns) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                String at = where + "/" + field.getKey();
                if (field.getKey().equals("pattern") && field.getValue().isString()) {
                    patterns.add(at + " = " + field.getValue().asString());
                } else {
                    collect(field.getValue(), at, patterns);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), where + "/" + i, patterns);
            }
        }
    }
}
