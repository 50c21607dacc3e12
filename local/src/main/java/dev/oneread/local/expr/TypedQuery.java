package dev.oneread.local.expr;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * A Query from a key condition someone typed, not from an access pattern: what {@code expr query} prints and the
 * console's builder shows and runs, built in one place for both.
 *
 * <pre>{@code QueryRequest q = TypedQuery.of("oneread", KeyCondition.partitionEquals("EntityRef", "WS#acme"), false, 10);}</pre>
 */
public final class TypedQuery {
    private TypedQuery() {}

    /**
     * The Query for a key condition, as {@code expr query} prints it and the console's builder shows and runs it.
     *
     * @throws IllegalArgumentException or IllegalStateException for a condition the builder refuses
     */
    public static QueryRequest of(String table, KeyCondition condition, boolean descending, Integer limit) {
        Expression expression = condition.build();
        QueryRequest.Builder builder = QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression(expression.expression())
                .expressionAttributeNames(expression.names())
                .expressionAttributeValues(expression.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
        if (descending) {
            builder.scanIndexForward(false);
        }
        if (limit != null) {
            builder.limit(limit);
        }
        return builder.build();
    }
}
