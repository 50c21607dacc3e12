package dev.oneread.expr;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A rendered update: UpdateExpression, ConditionExpression (null when unguarded), and the shared maps. */
public record UpdateExpression(
        String update, String condition, Map<String, String> names, Map<String, AttributeValue> values) {
    public UpdateExpression {
        names = Collections.unmodifiableMap(new LinkedHashMap<>(names));
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The values map, or null when empty (DynamoDB rejects an empty one). */
    public Map<String, AttributeValue> valuesOrNull() {
        return values.isEmpty() ? null : values;
    }
}
