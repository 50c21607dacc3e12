package dev.oneread.store.backfill;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import dev.oneread.operations.IndexEntries;
import dev.oneread.operations.WriteConditions;
import dev.oneread.store.internal.TableRequests;
import dev.oneread.store.items.Items;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The requests of the index backfill (pure building): a page of the items that have no index keys yet, and the
 * conditional update that gives one item its keys.
 *
 * <pre>{@code ScanRequest page = new BackfillRequests("oneread", plan).unindexed(Optional.empty(), 100);}</pre>
 */
public final class BackfillRequests {
    private final TableRequests table;
    private final ShardPlan plan;

    public BackfillRequests(String tableName, ShardPlan plan) {
        this.table = new TableRequests(tableName);
        this.plan = plan;
    }

    /**
     * One page of the table, strongly consistent, returning only the items without index keys (DynamoDB still
     * reads, and bills, the whole page: the filter spares the network, not the capacity).
     */
    public ScanRequest unindexed(Optional<PrimaryKey> after, int pageSize) {
        Expression notIndexed =
                Condition.attributeNotExists(KeyCodec.INDEX_PARTITION_KEY).build();
        return ScanRequest.builder()
                .tableName(table.tableName())
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
    public UpdateItemRequest indexWorkspace(PrimaryKey key) {
        Map<String, AttributeValue> entry = IndexEntries.registryEntry(
                plan, KeyCodec.decodePartition(key.partition()).workspaceId());
        return indexed(key, entry, Condition.attributeExists(Items.VERSION).and(WriteConditions.notPurging()));
    }

    /**
     * Gives a project the index keys of the status the backfill read, if it still has that status and still has
     * no index keys: a status change since then set the keys itself (and would make these stale), so it wins.
     */
    public UpdateItemRequest indexProject(PrimaryKey key, String status) {
        Map<String, AttributeValue> entry =
                IndexEntries.statusEntry(plan, status, KeyCodec.decodeProjectSortKey(key.sort()));
        return indexed(
                key,
                entry,
                Condition.attributeExists(Items.VERSION)
                        .and(Condition.equalTo(Items.STATUS, AttributeValue.fromS(status))));
    }

    private UpdateItemRequest indexed(PrimaryKey key, Map<String, AttributeValue> entry, Condition still) {
        Update update = null;
        for (Map.Entry<String, AttributeValue> e : entry.entrySet()) {
            update = update == null ? Update.set(e.getKey(), e.getValue()) : update.andSet(e.getKey(), e.getValue());
        }
        return table.update(
                key,
                update.when(still.and(Condition.attributeNotExists(KeyCodec.INDEX_PARTITION_KEY)))
                        .build(),
                null);
    }
}
