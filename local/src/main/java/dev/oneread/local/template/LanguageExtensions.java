package dev.oneread.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of CloudFormation's {@code AWS::LanguageExtensions} transform that template.yaml uses, applied as
 * CloudFormation applies it before SAM's transform: each {@code Fn::ForEach::<Loop>: [Identifier, [values...],
 * {OutputKey: OutputValue, ...}]} in Resources, Conditions and Outputs is replaced by one copy of its fragment per
 * value. In a copy, as the transform does (the Fn::ForEach RFC, aws-cloudformation/cfn-language-discussion, and
 * cfn-lint's implementation of it):
 *
 * <ul>
 *   <li>{@code ${Identifier}} in a key, and in an {@code Fn::Sub} text, becomes the value; {@code &{Identifier}}
 *       the value without its non-alphanumeric characters. A plain string value is left as it is.
 *   <li>{@code Ref: Identifier} becomes the value; {@code Ref: {Fn::Sub: ...}} a Ref to what the Sub makes.
 *   <li>an {@code Fn::Sub} left with no placeholder becomes its text; one whose variables are all literals (what a
 *       resolved {@code Fn::FindInMap} leaves) becomes its text with them put in, as CloudFormation makes it when it
 *       creates the stack.
 *   <li>{@code Fn::FindInMap} with literal keys (the identifier's value among them) becomes the mapping's value, or
 *       its {@code DefaultValue}.
 *   <li>{@code Fn::If}'s condition name is left as it is, its two branches are expanded.
 * </ul>
 *
 * A collection is a list written in the template, or an {@code Fn::FindInMap} to one; anything else is refused,
 * as is an expansion that makes a key twice. Outside the loops the template is left as written.
 */
final class LanguageExtensions {
    static final String TRANSFORM = "AWS::LanguageExtensions";
    private static final String FOR_EACH = "Fn::ForEach::";
    private static final List<String> SECTIONS = List.of("Conditions", "Resources", "Outputs");
    /** A placeholder as CloudFormation writes one: ${Name} or &{Name} ({@code ${!Literal}} is not one). */
    private static final Pattern PLACEHOLDER = Pattern.compile("[$&]\\{([A-Za-z0-9.:]+)}");
    /** A Sub's placeholder, or its escaped literal ${!...}. */
    private static final Pattern SUB_PLACEHOLDER = Pattern.compile("\\$\\{(!?)([^}]*)}");

    private final Map<String, Object> mappings;

    private LanguageExtensions(Map<String, Object> mappings) {
        this.mappings = mappings;
    }

    /** The document with its loops expanded, if its Transform names this transform; else the document. */
    static Map<String, Object> expand(Map<String, Object> document) {
        Object transform = document.get("Transform");
        boolean named = transform instanceof List<?> list ? list.contains(TRANSFORM) : TRANSFORM.equals(transform);
        if (!named) {
            return document;
        }
        LanguageExtensions extensions = new LanguageExtensions(SamTemplate.map(document.get("Mappings")));
        Map<String, Object> out = new LinkedHashMap<>(document);
        for (String section : SECTIONS) {
            if (document.containsKey(section)) {
                out.put(section, extensions.walk(document.get(section), Map.of()));
            }
        }
        return out;
    }

    private Object walk(Object value, Map<String, String> loop) {
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1 && !loop.isEmpty()) {
                Map.Entry<?, ?> only = map.entrySet().iterator().next();
                if (only.getKey() instanceof String function && isIntrinsic(function)) {
                    return intrinsic(function, only.getValue(), loop);
                }
            }
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                String key = String.valueOf(k);
                if (key.startsWith(FOR_EACH)) {
                    forEach(key, v, loop).forEach((made, fragment) -> put(out, made, fragment, key));
                } else {
                    put(out, loop.isEmpty() ? key : substituted(key, loop), walk(v, loop), key);
                }
            });
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> out.add(walk(v, loop)));
            return out;
        }
        return value;
    }

    private Map<String, Object> forEach(String name, Object declaration, Map<String, String> outer) {
        List<Object> parts = SamTemplate.list(declaration);
        if (parts.size() != 3 || !(parts.get(0) instanceof String identifier) || !(parts.get(2) instanceof Map<?, ?>)) {
            throw new IllegalStateException(name + " is not [Identifier, Collection, {OutputKey: OutputValue}]");
        }
        Object collection = walk(parts.get(1), outer);
        if (collection instanceof Map<?, ?> function && function.containsKey("Fn::FindInMap")) {
            collection = findInMap(SamTemplate.list(walk(function.get("Fn::FindInMap"), outer)));
        }
        if (!(collection instanceof List<?> values)) {
            throw new IllegalStateException(name + "'s collection is not a list the reader can resolve: " + collection);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object item : values) {
            Map<String, String> loop = new LinkedHashMap<>(outer);
            loop.put(identifier, String.valueOf(item));
            SamTemplate.map(walk(parts.get(2), loop)).forEach((key, fragment) -> put(out, key, fragment, name));
        }
        return out;
    }

    private Object intrinsic(String function, Object argument, Map<String, String> loop) {
        switch (function) {
            case "Ref" -> {
                Object target = argument instanceof String ? argument : walk(argument, loop);
                if (target instanceof String name) {
                    return loop.containsKey(name) ? loop.get(name) : Map.of("Ref", name);
                }
                return Map.of("Ref", target);
            }
            case "Fn::Sub" -> {
                return sub(argument, loop);
            }
            case "Fn::FindInMap" -> {
                List<Object> keys = SamTemplate.list(walk(argument, loop));
                Object found = findInMap(keys);
                return found != null ? found : Map.of(function, keys);
            }
            case "Fn::If" -> {
                List<Object> choice = new ArrayList<>(SamTemplate.list(argument));
                for (int branch = 1; branch < choice.size(); branch++) {
                    choice.set(branch, walk(choice.get(branch), loop));
                }
                return Map.of(function, choice);
            }
            default -> {
                return Map.of(function, walk(argument, loop));
            }
        }
    }

    private Object sub(Object argument, Map<String, String> loop) {
        if (argument instanceof String text) {
            String made = substituted(text, loop);
            return PLACEHOLDER.matcher(made).find() ? Map.of("Fn::Sub", made) : made;
        }
        List<Object> parts = SamTemplate.list(argument);
        if (parts.isEmpty() || !(parts.get(0) instanceof String text)) {
            return Map.of("Fn::Sub", walk(argument, loop));
        }
        String made = substituted(text, loop);
        if (!PLACEHOLDER.matcher(made).find()) {
            return made;
        }
        Map<String, Object> variables = SamTemplate.map(parts.size() > 1 ? walk(parts.get(1), loop) : Map.of());
        String literal = withLiterals(made, variables);
        return literal != null ? literal : Map.of("Fn::Sub", List.of(made, variables));
    }

    /** The Sub's text with its variables put in, if each placeholder is one of them and each is a literal. */
    private static String withLiterals(String text, Map<String, Object> variables) {
        if (!variables.values().stream().allMatch(v -> v instanceof String || v instanceof Number)) {
            return null;
        }
        Matcher placeholder = SUB_PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (placeholder.find()) {
            String name = placeholder.group(2);
            boolean escaped = !placeholder.group(1).isEmpty();
            if (!escaped && !variables.containsKey(name)) {
                return null;
            }
            String replacement = escaped ? "${" + name + "}" : String.valueOf(variables.get(name));
            placeholder.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        placeholder.appendTail(out);
        return out.toString();
    }

    /** The mapping's value for three literal keys, its DefaultValue when it has none, or null. */
    private Object findInMap(List<Object> keys) {
        if (keys.size() < 3 || !keys.subList(0, 3).stream().allMatch(k -> k instanceof String)) {
            return null;
        }
        Object found = SamTemplate.map(
                        SamTemplate.map(mappings.get((String) keys.get(0))).get((String) keys.get(1)))
                .get((String) keys.get(2));
        if (found == null && keys.size() == 4) {
            return SamTemplate.map(keys.get(3)).get("DefaultValue");
        }
        if (found == null) {
            throw new IllegalStateException("template.yaml's Mappings have no " + keys);
        }
        return found;
    }

    /** ${Identifier} replaced by the loop's value, &{Identifier} by its alphanumeric characters. */
    private static String substituted(String text, Map<String, String> loop) {
        String out = text;
        for (Map.Entry<String, String> identifier : loop.entrySet()) {
            out = out.replace("${" + identifier.getKey() + "}", identifier.getValue())
                    .replace(
                            "&{" + identifier.getKey() + "}",
                            identifier.getValue().replaceAll("[^0-9A-Za-z]", ""));
        }
        return out;
    }

    private static void put(Map<String, Object> out, String key, Object value, String from) {
        if (out.putIfAbsent(key, value) != null) {
            throw new IllegalStateException(from + " makes " + key + " a second time");
        }
    }

    /** A function to apply; a nested loop (a one-key fragment) is expanded as a key instead. */
    private static boolean isIntrinsic(String key) {
        return key.equals("Ref") || (key.startsWith("Fn::") && !key.startsWith(FOR_EACH));
    }
}
