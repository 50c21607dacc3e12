package dev.oneread.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Template values as CloudFormation resolves them for one set of parameter values: {@code Ref} to a parameter becomes
 * its value, {@code Fn::If} the branch its condition picks, {@code AWS::NoValue} a key (or list element) left out, and
 * the Conditions are evaluated ({@code Fn::Equals} compares strings, as CloudFormation does; {@code Fn::Not},
 * {@code Fn::And}, {@code Fn::Or}, {@code Condition}). Any other intrinsic is returned as it is. The runner resolves
 * over its run's parameters (the template's defaults under the local ones and {@code --parameter-overrides}): the
 * authorizer's issuer, the table's throughput caps.
 *
 * <pre>{@code Object caps = TemplateValues.of(template, Map.of("TableMaxWriteRequestUnits", "40")).resolve(cap);}</pre>
 */
public final class TemplateValues {
    private final Map<String, Object> conditions;
    private final Map<String, Map<String, Object>> declared;
    private final Map<String, String> parameters;

    private TemplateValues(SamTemplate template, Map<String, String> parameters) {
        this.conditions = SamTemplate.map(template.document().get("Conditions"));
        this.declared = template.parameters();
        this.parameters = parameters;
    }

    /** {@code given} over the template's defaults. */
    public static TemplateValues of(SamTemplate template, Map<String, String> given) {
        Map<String, String> values = new LinkedHashMap<>();
        template.parameters().forEach((name, parameter) -> {
            if (parameter.get("Default") != null) {
                values.put(name, String.valueOf(parameter.get("Default")));
            }
        });
        values.putAll(given);
        return new TemplateValues(template, values);
    }

    /** Every parameter at its default, as a stack deployed without overrides. */
    public static TemplateValues defaults(SamTemplate template) {
        return of(template, Map.of());
    }

    public boolean isTrue(String condition) {
        if (!conditions.containsKey(condition)) {
            throw new IllegalArgumentException("template.yaml has no condition " + condition);
        }
        return evaluate(conditions.get(condition));
    }

    /** {@code value} resolved; null where it is {@code AWS::NoValue}. */
    public Object resolve(Object value) {
        if (value instanceof Map<?, ?> map
                && map.size() == 1
                && isIntrinsic(map.keySet().iterator().next())) {
            Object ref = map.get("Ref");
            if ("AWS::NoValue".equals(ref)) {
                return null;
            }
            if (ref instanceof String name && declared.containsKey(name)) {
                // A parameter with no default and no value: the runner passes the required ones, so "" only
                // reaches a template the runner does not deploy.
                return parameters.getOrDefault(name, "");
            }
            if (map.get("Fn::If") instanceof List<?> choice && choice.size() == 3) {
                return resolve(isTrue(String.valueOf(choice.get(0))) ? choice.get(1) : choice.get(2));
            }
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                Object resolved = resolve(v);
                if (resolved != null) {
                    out.put(String.valueOf(k), resolved);
                }
            });
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            list.forEach(v -> {
                Object resolved = resolve(v);
                if (resolved != null) {
                    out.add(resolved);
                }
            });
            return out;
        }
        return value;
    }

    private static boolean isIntrinsic(Object key) {
        return key instanceof String k && (k.equals("Ref") || k.equals("Condition") || k.startsWith("Fn::"));
    }

    private boolean evaluate(Object expression) {
        Map<String, Object> function = SamTemplate.map(expression);
        if (function.size() != 1) {
            throw new IllegalArgumentException("not a condition: " + expression);
        }
        Map.Entry<String, Object> only = function.entrySet().iterator().next();
        List<Object> arguments = only.getValue() instanceof List<?> ? SamTemplate.list(only.getValue()) : List.of();
        return switch (only.getKey()) {
            case "Fn::Equals" -> operand(arguments.get(0)).equals(operand(arguments.get(1)));
            case "Fn::Not" -> !evaluate(arguments.get(0));
            case "Fn::And" -> arguments.stream().allMatch(this::evaluate);
            case "Fn::Or" -> arguments.stream().anyMatch(this::evaluate);
            case "Condition" -> isTrue(String.valueOf(only.getValue()));
            default -> throw new IllegalArgumentException("the runner does not evaluate " + only.getKey());
        };
    }

    /** A parameter's value, or a literal's text. */
    private String operand(Object operand) {
        if (operand instanceof Map<?, ?> map && map.get("Ref") instanceof String name) {
            if (!parameters.containsKey(name)) {
                throw new IllegalArgumentException("the runner cannot compare " + name);
            }
            return parameters.get(name);
        }
        return String.valueOf(operand);
    }
}
