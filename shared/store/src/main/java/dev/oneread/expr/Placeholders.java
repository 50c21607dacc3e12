package dev.oneread.expr;

import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Allocates readable, collision-free placeholders: {@code EntityRef} becomes {@code #er} (the initials of
 * its words), and a second attribute with the same initials gets {@code #er2}. Readable placeholders make
 * the expression printed by {@code expr} and seen in logs easy to check by eye.
 */
final class Placeholders {
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, AttributeValue> values = new LinkedHashMap<>();

    /** The {@code #name} placeholder for an attribute, reused if the attribute was seen before. */
    String name(String attribute) {
        requireAttribute(attribute);
        for (Map.Entry<String, String> entry : names.entrySet()) {
            if (entry.getValue().equals(attribute)) {
                return entry.getKey();
            }
        }
        String placeholder = unique("#" + initials(attribute), names);
        names.put(placeholder, attribute);
        return placeholder;
    }

    /** A new {@code :value} placeholder whose name starts with {@code hint}. */
    String value(String hint, AttributeValue value) {
        if (value == null) {
            throw new IllegalArgumentException("expression value must not be null");
        }
        String placeholder = unique(":" + hint, values);
        values.put(placeholder, value);
        return placeholder;
    }

    Expression build(String text) {
        return new Expression(text, names, values);
    }

    static String initials(String attribute) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < attribute.length(); i++) {
            char c = attribute.charAt(i);
            boolean wordStart = i == 0
                    || Character.isUpperCase(c) && !Character.isUpperCase(attribute.charAt(i - 1))
                    || !Character.isLetterOrDigit(attribute.charAt(i - 1)) && Character.isLetterOrDigit(c);
            if (wordStart && Character.isLetterOrDigit(c)) {
                out.append(Character.toLowerCase(c));
            }
        }
        return out.length() == 0 ? "a" : out.toString();
    }

    static String initialsOf(String attribute) {
        requireAttribute(attribute);
        return initials(attribute);
    }

    private static String unique(String base, Map<String, ?> taken) {
        if (!taken.containsKey(base)) {
            return base;
        }
        for (int n = 2; ; n++) {
            if (!taken.containsKey(base + n)) {
                return base + n;
            }
        }
    }

    private static void requireAttribute(String attribute) {
        if (attribute == null || attribute.isBlank()) {
            throw new IllegalArgumentException("attribute name must not be blank");
        }
    }
}
