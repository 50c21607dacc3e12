package dev.oneread.tests.contract;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateValues;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resources of template.yaml as the local template reader sees them, every parameter at its default: each
 * logical id with its whole declaration (Type, Condition, Properties, ...), keys sorted, as JSON. The snapshot of
 * the template before its per-function resources were folded into {@code Fn::ForEach} loops is
 * {@value #SNAPSHOT}; ExpandedTemplateTest holds today's template to it. Since then, only the six resources that
 * turn cfn-lint's E3034 off for themselves carry that Metadata: CloudFormation builds nothing from a resource's
 * Metadata, and the SAM translator hashes none into a version's id. To write it anew (only when the resources are
 * meant to change):
 *
 * <pre>{@code java -cp <test classpath> dev.oneread.tests.contract.ExpandedResources}</pre>
 */
final class ExpandedResources {
    static final String SNAPSHOT = "tests/src/test/resources/contract/template-resources.json";

    private ExpandedResources() {}

    /** The resources, resolved with the template's defaults, as JSON text. */
    static String of(SamTemplate template) throws IOException {
        TemplateValues defaults = TemplateValues.defaults(template);
        Map<String, Object> out = new TreeMap<>();
        template.resources().forEach((id, resource) -> out.put(id, sorted(defaults.resolve(resource))));
        return JSON.std.with(JSON.Feature.PRETTY_PRINT_OUTPUT).asString(out) + "\n";
    }

    /** The JSON text read back as maps, lists and scalars, so that two snapshots compare as values. */
    static Map<String, Object> parsed(String json) throws IOException {
        return JSON.std.mapFrom(json);
    }

    private static Object sorted(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), sorted(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(sorted(v)));
            return out;
        }
        return value;
    }

    public static void main(String[] args) throws IOException {
        Path root = ProjectRoot.find();
        Path snapshot = root.resolve(SNAPSHOT);
        Files.createDirectories(snapshot.getParent());
        Files.writeString(snapshot, of(SamTemplate.load(root.resolve("template.yaml"))), StandardCharsets.UTF_8);
        System.out.println("wrote " + snapshot);
    }
}
