package dev.oneread.local.runner;

import dev.oneread.local.SamTemplate;
import java.util.List;
import java.util.Map;

/**
 * The template's Conditions over a run's parameters, as CloudFormation evaluates them: {@code Fn::Equals} of
 * parameter references and literals, {@code Fn::Not}, {@code Fn::And}, {@code Fn::Or} and {@code Condition}. The
 * runner needs them where the template chooses with {@code Fn::If}, such as the authorizer's issuer: the stack's
 * own user pool when JwtIssuer is empty, the parameters otherwise (the runner sets them, so a local run always
 * takes the second branch).
 *
 * <pre>{@code boolean created = new TemplateConditions(template, parameters).isTrue("CreateIdentity");}</pre>
 */
final class TemplateConditions {
    private final Map<String, Object> conditions;
    private final Map<String, String> parameters;

    TemplateConditions(SamTemplate template, Map<String, String> parameters) {
        this.conditions = SamTemplate.map(template.document().get("Conditions"));
        this.parameters = parameters;
    }

    boolean isTrue(String name) {
        if (!conditions.containsKey(name)) {
            throw new IllegalArgumentException("template.yaml has no condition " + name);
        }
        return evaluate(conditions.get(name));
    }

    /** {@code value}, with each {@code Fn::If} replaced by the branch its condition picks. */
    Object choose(Object value) {
        if (value instanceof Map<?, ?> map && map.size() == 1 && map.get("Fn::If") instanceof List<?> choice) {
            return choose(isTrue(String.valueOf(choice.get(0))) ? choice.get(1) : choice.get(2));
        }
        return value;
    }

    private boolean evaluate(Object expression) {
        Map<String, Object> function = SamTemplate.map(expression);
        if (function.size() != 1) {
            throw new IllegalArgumentException("not a condition: " + expression);
        }
        Map.Entry<String, Object> only = function.entrySet().iterator().next();
        List<Object> arguments = only.getValue() instanceof List<?> ? SamTemplate.list(only.getValue()) : List.of();
        return switch (only.getKey()) {
            case "Fn::Equals" -> value(arguments.get(0)).equals(value(arguments.get(1)));
            case "Fn::Not" -> !evaluate(arguments.get(0));
            case "Fn::And" -> arguments.stream().allMatch(this::evaluate);
            case "Fn::Or" -> arguments.stream().anyMatch(this::evaluate);
            case "Condition" -> isTrue(String.valueOf(only.getValue()));
            default -> throw new IllegalArgumentException("the runner does not evaluate " + only.getKey());
        };
    }

    /** A parameter's value, or a literal's text (CloudFormation compares them as strings). */
    private String value(Object operand) {
        if (operand instanceof Map<?, ?> map && map.get("Ref") instanceof String name) {
            if (!parameters.containsKey(name)) {
                throw new IllegalArgumentException("the runner cannot compare " + name);
            }
            return parameters.get(name);
        }
        return String.valueOf(operand);
    }
}
