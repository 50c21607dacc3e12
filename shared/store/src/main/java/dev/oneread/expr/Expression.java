package dev.oneread.expr;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A finished DynamoDB expression: the text with {@code #name} and {@code :value} placeholders, and the two
 * maps that give them meaning. Maps keep insertion order so that printed output is stable.
 *
 * <pre>{@code
 * Expression e = KeyCondition.partitionEquals("EntityRef", "WS#acme").sortBeginsWith("Detail", "PROJ#").build();
 * e.expression();  // #er = :er AND begins_with(#d, :p)
 * }</pre>
 */
public record Expression(String expression, Map<String, String> names, Map<String, AttributeValue> values) {

    public Expression {
        names = Collections.unmodifiableMap(new LinkedHashMap<>(names));
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * The values map, or null when it is empty: DynamoDB rejects an empty ExpressionAttributeValues, and the
     * SDK leaves a null map out of the request.
     */
    public Map<String, AttributeValue> valuesOrNull() {
        return values.isEmpty() ? null : values;
    }
}
