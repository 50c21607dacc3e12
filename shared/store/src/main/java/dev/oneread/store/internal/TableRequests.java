package dev.oneread.store.internal;

import dev.oneread.expr.Expression;
import dev.oneread.expr.UpdateExpression;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.store.items.Items;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The assembly of one SDK request per verb, the same for every access pattern: the table, the key, the
 * expression and its maps, and the settings every request of this service carries. Every request asks for its
 * consumed capacity (the audit reports it), and every conditional write asks DynamoDB to return the item that
 * failed its condition: a conflict then explains itself without a second call, and the audit can count what
 * the refused write is billed (by that item's size).
 */
public final class TableRequests {
    private final String tableName;

    public TableRequests(String tableName) {
        if (tableName == null || tableName.isBlank()) {
            throw new IllegalArgumentException("table name is not specified");
        }
        this.tableName = tableName;
    }

    public String tableName() {
        return tableName;
    }

    /** One item; strongly consistent when {@code consistent}, else eventually consistent (half the price). */
    /**
     * A workspace's item as it stands, strongly consistent: what every job reads before it acts on a workspace (a
     * purge's run, a migration's lease, whether a stats task may still keep the report).
     */
    public GetItemRequest workspaceAsItStands(WorkspaceId workspaceId) {
        return get(KeyCodec.workspaceKey(workspaceId), true);
    }

    public GetItemRequest get(PrimaryKey key, boolean consistent) {
        return GetItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(key))
                .consistentRead(consistent ? Boolean.TRUE : null)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** Writes a whole item if {@code condition} holds. */
    public PutItemRequest put(Map<String, AttributeValue> item, Expression condition) {
        return PutItemRequest.builder()
                .tableName(tableName)
                .item(item)
                .conditionExpression(condition.expression())
                .expressionAttributeNames(condition.names())
                .expressionAttributeValues(condition.valuesOrNull())
                .returnValuesOnConditionCheckFailure(ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** Writes a whole item, whatever is there: for the one write that must win over anything (a tombstone). */
    public PutItemRequest put(Map<String, AttributeValue> item) {
        return PutItemRequest.builder()
                .tableName(tableName)
                .item(item)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** Changes an item if the update's condition holds; {@code returnValues} null for none. */
    public UpdateItemRequest update(PrimaryKey key, UpdateExpression update, ReturnValue returnValues) {
        return UpdateItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(key))
                .updateExpression(update.update())
                .conditionExpression(update.condition())
                .expressionAttributeNames(update.names())
                .expressionAttributeValues(update.valuesOrNull())
                .returnValues(returnValues)
                .returnValuesOnConditionCheckFailure(update.condition() == null ? null : ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** Deletes an item if {@code condition} holds, or unconditionally when it is empty. */
    public DeleteItemRequest delete(PrimaryKey key, Optional<Expression> condition) {
        return DeleteItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(key))
                .conditionExpression(condition.map(Expression::expression).orElse(null))
                .expressionAttributeNames(condition.map(Expression::names).orElse(null))
                .expressionAttributeValues(
                        condition.map(Expression::valuesOrNull).orElse(null))
                .returnValuesOnConditionCheckFailure(condition.isPresent() ? ALL_OLD : null)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * One page of a partition: {@code limit + 1} items, the extra one telling whether another page exists, after
     * {@code exclusiveStart} when given.
     */
    public QueryRequest query(
            Expression keyCondition,
            int limit,
            boolean ascending,
            Optional<PrimaryKey> exclusiveStart,
            boolean consistent) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        return QueryRequest.builder()
                .tableName(tableName)
                .keyConditionExpression(keyCondition.expression())
                .expressionAttributeNames(keyCondition.names())
                .expressionAttributeValues(keyCondition.valuesOrNull())
                .scanIndexForward(ascending)
                .limit(limit + 1)
                .exclusiveStartKey(exclusiveStart.map(Items::key).orElse(null))
                .consistentRead(consistent ? Boolean.TRUE : null)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * One page of an index partition: {@code limit + 1} items. The position is in the key condition (a sort key
     * bound), not an ExclusiveStartKey, which on an index would need the base table's key of the last item too.
     * Eventually consistent: a global secondary index supports nothing else.
     */
    public QueryRequest queryIndex(String indexName, Expression keyCondition, int limit, boolean ascending) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        return QueryRequest.builder()
                .tableName(tableName)
                .indexName(indexName)
                .keyConditionExpression(keyCondition.expression())
                .expressionAttributeNames(keyCondition.names())
                .expressionAttributeValues(keyCondition.valuesOrNull())
                .scanIndexForward(ascending)
                .limit(limit + 1)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * DynamoDB (since June 2023) returns the current item in the ConditionalCheckFailedException, at no capacity
     * cost, so 404 and 412 need no second call. Engines that drop the field (dynalite) fall back to a read.
     */
    private static final ReturnValuesOnConditionCheckFailure ALL_OLD = ReturnValuesOnConditionCheckFailure.ALL_OLD;
}
