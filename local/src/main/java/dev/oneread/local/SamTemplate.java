package dev.oneread.local;

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
 * become their long forms ({@code {Ref: X}}, {@code {Fn::GetAtt: [A, B]}}), so callers see one shape.
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
        return new SamTemplate((Map<String, Object>) loaded);
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

    /**
     * A property value as CloudFormation deploys it when every parameter keeps its default: {@code !Ref} to a
     * parameter becomes its Default, {@code !If} takes the branch its condition picks, and {@code AWS::NoValue}
     * becomes null (the key is left out). Any other intrinsic is returned as it is.
     *
     * <pre>{@code Object cap = template.withDefaults(properties.get("OnDemandThroughput"));}</pre>
     */
    public Object withDefaults(Object value) {
        if (value instanceof Map<?, ?> m
                && m.size() == 1
                && isIntrinsic(m.keySet().iterator().next())) {
            Object ref = m.get("Ref");
            if ("AWS::NoValue".equals(ref)) {
                return null;
            }
            if (ref instanceof String name && parameters().containsKey(name)) {
                return parameters().get(name).get("Default");
            }
            List<Object> branches = list(m.get("Fn::If"));
            if (branches.size() == 3) {
                return withDefaults(branches.get(condition(branches.get(0)) ? 1 : 2));
            }
            return value;
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> {
                Object resolved = withDefaults(v);
                if (resolved != null) {
                    out.put((String) k, resolved);
                }
            });
            return out;
        }
        return value;
    }

    private static boolean isIntrinsic(Object key) {
        return key instanceof String k && (k.equals("Ref") || k.equals("Condition") || k.startsWith("Fn::"));
    }

    /** A condition (by name, or as an expression) evaluated with every parameter at its default. */
    private boolean condition(Object condition) {
        if (condition instanceof String name) {
            Object declared = map(document.get("Conditions")).get(name);
            if (declared == null) {
                throw new IllegalStateException("template.yaml has no condition " + name);
            }
            return condition(declared);
        }
        Map<String, Object> expression = map(condition);
        if (expression.containsKey("Condition")) {
            return condition(expression.get("Condition"));
        }
        List<Object> args = list(expression.values().stream().findFirst().orElse(null));
        return switch (expression.keySet().stream().findFirst().orElse("")) {
            case "Fn::Equals" ->
                String.valueOf(withDefaults(args.get(0))).equals(String.valueOf(withDefaults(args.get(1))));
            case "Fn::Not" -> !condition(args.get(0));
            case "Fn::And" -> args.stream().allMatch(this::condition);
            case "Fn::Or" -> args.stream().anyMatch(this::condition);
            default -> throw new IllegalStateException("cannot evaluate the condition " + condition);
        };
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
