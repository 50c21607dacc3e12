package dev.oneread.local.template;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * template.yaml, read as CloudFormation does: short tags such as {@code !Ref X} and {@code !GetAtt A.B}
 * become their long forms ({@code {Ref: X}}, {@code {Fn::GetAtt: [A, B]}}), so callers see one shape; and, when
 * the template names the {@code AWS::LanguageExtensions} transform, its {@code Fn::ForEach} loops are expanded
 * ({@link LanguageExtensions}), so callers see each resource a loop makes, as SAM's transform and CloudFormation
 * do. The package holds everything that reads the template: this reader, its values under a run's parameters
 * ({@link TemplateValues}) and the tables it declares ({@link TemplateTables}).
 *
 * <pre>{@code SamTemplate template = SamTemplate.load(ProjectRoot.find().resolve("template.yaml"));}</pre>
 */
public final class SamTemplate {
    private final Map<String, Object> document;

    private SamTemplate(Map<String, Object> document) {
        this.document = document;
    }

    public static SamTemplate load(Path path) {
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            return parse(reader);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + path, e);
        }
    }

    @SuppressWarnings("unchecked")
    public static SamTemplate parse(Reader reader) {
        Yaml yaml = new Yaml(new IntrinsicConstructor(new LoaderOptions()));
        Object loaded = yaml.load(reader);
        if (!(loaded instanceof Map<?, ?>)) {
            throw new IllegalStateException("template is not a YAML mapping");
        }
        return new SamTemplate(LanguageExtensions.expand((Map<String, Object>) loaded));
    }

    public Map<String, Object> document() {
        return document;
    }

    /** Logical id to resource (Type, Properties, ...), in template order. */
    public Map<String, Map<String, Object>> resources() {
        return mapOfMaps(document.get("Resources"));
    }

    public Map<String, Map<String, Object>> resourcesOfType(String type) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        resources().forEach((id, resource) -> {
            if (type.equals(resource.get("Type"))) {
                out.put(id, resource);
            }
        });
        return out;
    }

    public Map<String, Map<String, Object>> parameters() {
        return mapOfMaps(document.get("Parameters"));
    }

    /** A nested map value, or an empty map. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** A nested list value, or an empty list. */
    @SuppressWarnings("unchecked")
    public static List<Object> list(Object value) {
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }

    private static Map<String, Map<String, Object>> mapOfMaps(Object value) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        map(value).forEach((k, v) -> out.put(k, map(v)));
        return out;
    }

    /** Turns every {@code !Tag} into CloudFormation's long form. */
    private static final class IntrinsicConstructor extends SafeConstructor {
        IntrinsicConstructor(LoaderOptions options) {
            super(options);
            yamlMultiConstructors.put("!", new AbstractConstruct() {
                @Override
                public Object construct(Node node) {
                    String tag = node.getTag().getValue().substring(1);
                    String function = tag.equals("Ref") || tag.equals("Condition") ? tag : "Fn::" + tag;
                    Object value;
                    if (node instanceof ScalarNode scalar) {
                        value = constructScalar(scalar);
                        if (tag.equals("GetAtt")) {
                            value = List.of(((String) value).split("\\.", 2));
                        }
                    } else if (node instanceof SequenceNode sequence) {
                        value = new ArrayList<>(constructSequence(sequence));
                    } else {
                        value = new LinkedHashMap<>(constructMapping((MappingNode) node));
                    }
                    return Map.of(function, value);
                }
            });
        }
    }
}
