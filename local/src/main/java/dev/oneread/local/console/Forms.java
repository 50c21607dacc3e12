package dev.oneread.local.console;

import dev.oneread.model.DynamoDbNumber;
import java.math.BigDecimal;
import java.util.Map;

/** The fields of a form the page posts as a JSON object, each of the type it must be or a {@link BadRequest}. */
final class Forms {
    private Forms() {}

    static String text(Map<String, Object> form, String field, String otherwise) {
        Object value = form.get(field);
        if (value == null) {
            return otherwise;
        }
        if (!(value instanceof String s)) {
            throw new BadRequest(field + " must be a string");
        }
        return s;
    }

    /** A field that must be given, as a non-empty string. */
    static String required(Map<String, Object> form, String field) {
        String value = text(form, field, "");
        if (value.isEmpty()) {
            throw new BadRequest(field + " is required");
        }
        return value;
    }

    /**
     * A whole number from {@code min} to {@code max}, or {@code otherwise} when the field is left out. The range is
     * compared before anything converts the number: {@code longValue()} of a posted {@code 1e999999999} would build
     * its billion digits first.
     */
    static long number(Map<String, Object> form, String field, long otherwise, long min, long max) {
        Object value = form.get(field);
        if (value == null) {
            return otherwise;
        }
        BigDecimal n = value instanceof Number number
                ? DynamoDbNumber.of(number.toString())
                        .map(DynamoDbNumber::decimal)
                        .orElse(null)
                : null;
        if (n == null
                || n.compareTo(BigDecimal.valueOf(min)) < 0
                || n.compareTo(BigDecimal.valueOf(max)) > 0
                || n.signum() != 0 && n.stripTrailingZeros().scale() > 0) {
            throw new BadRequest(field + " must be a whole number from " + min + " to " + max);
        }
        return n.longValueExact();
    }

    /** A JSON object, or an empty one when the field is left out. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> form, String field) {
        Object value = form.getOrDefault(field, Map.of());
        if (!(value instanceof Map<?, ?> map)) {
            throw new BadRequest(field + " must be a JSON object");
        }
        return (Map<String, Object>) map;
    }

    /** A JSON array of any length, or an empty one when the field is left out. */
    static java.util.List<?> list(Map<String, Object> form, String field) {
        Object value = form.getOrDefault(field, java.util.List.of());
        if (!(value instanceof java.util.List<?> list)) {
            throw new BadRequest(field + " must be a JSON array");
        }
        return list;
    }
}
