package dev.oneread.expr;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The expressions of one Query or Scan: a key condition (a Query's), a filter and a projection, rendered with one
 * set of placeholders, since DynamoDB takes a single ExpressionAttributeNames and ExpressionAttributeValues for all
 * three. A part not given is null, and so is a map left empty, as the SDK wants them.
 *
 * <pre>{@code
 * ReadExpressions r = ReadExpressions.query(KeyCondition.partitionEquals("EntityRef", "WS#acme"),
 *         List.of(Condition.equalTo("status", AttributeValue.fromS("ACTIVE"))), List.of("name", "status"));
 * // #er = :er · #s = :s · #n, #s
 * }</pre>
 */
public record ReadExpressions(
        String keyCondition,
        String filter,
        String projection,
        Map<String, String> names,
        Map<String, AttributeValue> values) {

    public ReadExpressions {
        names = names == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(names));
        values = values == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A Query's: its key condition, its filters joined by AND, its projection (none: every attribute). */
    public static ReadExpressions query(KeyCondition key, List<Condition> filters, List<String> projection) {
        Placeholders placeholders = new Placeholders();
        return render(placeholders, key.render(placeholders), filters, projection);
    }

    /** A Scan's: its filters joined by AND, its projection (none: every attribute). */
    public static ReadExpressions scan(List<Condition> filters, List<String> projection) {
        return render(new Placeholders(), null, filters, projection);
    }

    private static ReadExpressions render(
            Placeholders placeholders, String keyText, List<Condition> filters, List<String> projection) {
        String filterText = filters.stream()
                .reduce(Condition::and)
                .map(f -> f.render(placeholders))
                .orElse(null);
        List<String> projected = new ArrayList<>();
        projection.forEach(attribute -> projected.add(Path.of(attribute).render(placeholders)));
        Expression all = placeholders.build("");
        return new ReadExpressions(
                keyText,
                filterText,
                projected.isEmpty() ? null : String.join(", ", projected),
                all.names().isEmpty() ? null : all.names(),
                all.valuesOrNull());
    }
}
