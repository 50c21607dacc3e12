package dev.oneread.local.iam;

import java.util.List;
import java.util.Map;

/**
 * One condition of a statement: an operator, a context key and the values the policy names (IAM JSON policy
 * elements: Condition operators, and "Multivalued context keys" for the set operators). A key the request does not
 * carry makes a positive operator false, a negated one true, {@code ForAllValues} true (its documented trap: every
 * value of an empty set matches) and {@code ForAnyValue} false.
 *
 * <pre>{@code Condition.of("ForAllValues:StringLike", "dynamodb:LeadingKeys", List.of("WS#*"))}</pre>
 */
public record Condition(Quantifier quantifier, Operator operator, String key, List<String> values) {
    public Condition {
        values = List.copyOf(values); // the key keeps its case for the report; it is compared without (holds)
    }

    /** How the request's values of a multivalued key are taken: one at a time, all of them, or any of them. */
    public enum Quantifier {
        SINGLE,
        FOR_ALL_VALUES,
        FOR_ANY_VALUE
    }

    /** The string and ARN operators the template's statements use; any other is refused when the policy is read. */
    public enum Operator {
        STRING_EQUALS("StringEquals", false, false, false),
        STRING_NOT_EQUALS("StringNotEquals", false, false, true),
        STRING_EQUALS_IGNORE_CASE("StringEqualsIgnoreCase", false, true, false),
        STRING_LIKE("StringLike", true, false, false),
        STRING_NOT_LIKE("StringNotLike", true, false, true),
        ARN_EQUALS("ArnEquals", true, false, false),
        ARN_LIKE("ArnLike", true, false, false),
        ARN_NOT_EQUALS("ArnNotEquals", true, false, true),
        ARN_NOT_LIKE("ArnNotLike", true, false, true);

        private final String policyName;
        private final boolean wildcards;
        private final boolean ignoreCase;
        private final boolean negated;

        Operator(String policyName, boolean wildcards, boolean ignoreCase, boolean negated) {
            this.policyName = policyName;
            this.wildcards = wildcards;
            this.ignoreCase = ignoreCase;
            this.negated = negated;
        }

        private boolean matchesOne(String policyValue, String requestValue) {
            return wildcards
                    ? Wildcards.matches(policyValue, requestValue, ignoreCase)
                    : ignoreCase ? policyValue.equalsIgnoreCase(requestValue) : policyValue.equals(requestValue);
        }

        static Operator named(String name) {
            for (Operator operator : values()) {
                if (operator.policyName.equals(name)) {
                    return operator;
                }
            }
            throw new IllegalArgumentException("the local IAM does not evaluate the condition operator " + name
                    + ": add it to dev.oneread.local.iam.Condition before a policy uses it");
        }
    }

    /** A condition from its policy form: {@code ForAllValues:StringLike}, a key, and one value or a list. */
    public static Condition of(String operator, String key, List<String> values) {
        Quantifier quantifier = Quantifier.SINGLE;
        String name = operator;
        if (operator.startsWith("ForAllValues:")) {
            quantifier = Quantifier.FOR_ALL_VALUES;
            name = operator.substring("ForAllValues:".length());
        } else if (operator.startsWith("ForAnyValue:")) {
            quantifier = Quantifier.FOR_ANY_VALUE;
            name = operator.substring("ForAnyValue:".length());
        }
        return new Condition(quantifier, Operator.named(name), key, values);
    }

    /** Whether the request's context satisfies this condition. */
    public boolean holds(Map<String, List<String>> context) {
        List<String> given = context.entrySet().stream()
                .filter(e -> e.getKey().equalsIgnoreCase(key))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
        return switch (quantifier) {
            case FOR_ALL_VALUES -> given == null || given.stream().allMatch(this::valueHolds);
            case FOR_ANY_VALUE -> given != null && given.stream().anyMatch(this::valueHolds);
            case SINGLE ->
                given == null || given.isEmpty()
                        ? operator.negated
                        : given.stream().allMatch(this::valueHolds);
        };
    }

    /** One request value against the policy's values: a match with any of them, or with none for a negation. */
    private boolean valueHolds(String requestValue) {
        boolean matched = values.stream().anyMatch(v -> operator.matchesOne(v, requestValue));
        return operator.negated != matched;
    }

    @Override
    public String toString() {
        String prefix = switch (quantifier) {
            case FOR_ALL_VALUES -> "ForAllValues:";
            case FOR_ANY_VALUE -> "ForAnyValue:";
            case SINGLE -> "";
        };
        return prefix + operator.policyName + " " + key + " " + values;
    }
}
