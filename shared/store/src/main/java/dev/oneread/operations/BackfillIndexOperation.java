package dev.oneread.operations;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.store.items.Items;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The backfill job ({@code BackfillIndex}, an operator's): gives the index keys to items written before the index.
 * Its requests (pure building): a page of the items that have no index keys yet, and the conditional update that
 * gives one item its keys; the feature (IndexBackfill) makes the calls and paces them.
 *
 * <pre>{@code ScanRequest page = BackfillIndexOperation.unindexed(OperationContext.of("oneread"), Optional.empty(), 100);}</pre>
 */
public final class BackfillIndexOperation extends JobOperation {
    public static final BackfillIndexOperation INSTANCE = new BackfillIndexOperation();

    private BackfillIndexOperation() {
        super(JobDescriptor.builder("backfill")
                .function("BackfillIndex")
                .startedBy("an operator")
                .does("gives the index keys to items written before the index")
                .build());
    }

    /**
     * One page of the table, strongly consistent, returning only the items without index keys (DynamoDB still
     * reads, and bills, the whole page: the filter spares the network, not the capacity).
     */
    public static ScanRequest unindexed(OperationContext context, Optional<PrimaryKey> after, int pageSize) {
        Expression notIndexed =
                Condition.attributeNotExists(KeyCodec.INDEX_PARTITION_KEY).build();
        return ScanRequest.builder()
                .tableName(context.tableName())
                .filterExpression(notIndexed.expression())
                .expressionAttributeNames(notIndexed.names())
                .expressionAttributeValues(notIndexed.valuesOrNull())
                .limit(pageSize)
                .consistentRead(true)
                .exclusiveStartKey(after.map(Items::key).orElse(null))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * Gives a workspace its registry keys, if it is still a workspace (it has a version) and still has none: a
     * concurrent write that indexed it wins, and a deleted one (or one being purged) is not brought back.
     */
    public static UpdateItemRequest indexWorkspace(OperationContext context, PrimaryKey key) {
        Map<String, AttributeValue> entry = IndexEntries.registryEntry(
                context.plan(), KeyCodec.decodePartition(key.partition()).workspaceId());
        return indexed(
                context, key, entry, Condition.attributeExists(Items.VERSION).and(WriteConditions.notPurging()));
    }

    /**
     * Gives a project the index keys of the status the backfill read, if it still has that status and still has
     * no index keys: a status change since then set the keys itself (and would make these stale), so it wins.
     */
    public static UpdateItemRequest indexProject(OperationContext context, PrimaryKey key, String status) {
        Map<String, AttributeValue> entry =
                IndexEntries.statusEntry(context.plan(), status, KeyCodec.decodeProjectSortKey(key.sort()));
        return indexed(
                context,
                key,
                entry,
                Condition.attributeExists(Items.VERSION)
                        .and(Condition.equalTo(Items.STATUS, AttributeValue.fromS(status))));
    }

    private static UpdateItemRequest indexed(
            OperationContext context, PrimaryKey key, Map<String, AttributeValue> entry, Condition still) {
        Update update = null;
        for (Map.Entry<String, AttributeValue> e : entry.entrySet()) {
            update = update == null ? Update.set(e.getKey(), e.getValue()) : update.andSet(e.getKey(), e.getValue());
        }
        return context.table()
                .update(
                        key,
                        update.when(still.and(Condition.attributeNotExists(KeyCodec.INDEX_PARTITION_KEY)))
                                .build(),
                        null);
    }
}
