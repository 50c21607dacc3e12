package dev.oneread.local.console;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The console's copy of the local table, item by item, keyed as DynamoDB orders them. One Scan fills it when the
 * console starts (or on Rescan); after that it follows the engine's change feed ({@link #apply}), or from an engine
 * without one, the writes start-api serves, one consistent GetItem per written item; and every collection the
 * console opens is read afresh with a Query. So the partition list never scans the table again.
 *
 * <p>It reads the engine directly, with the runner's own client: a developer tool, never a request path.
 */
final class TableMirror {
    private final DynamoDbClient client;
    private final String table;
    /** Partition key to its items by sort key. Sort keys here are ASCII, where String order is byte order. */
    private final ConcurrentSkipListMap<String, ConcurrentSkipListMap<String, Map<String, AttributeValue>>> items =
            new ConcurrentSkipListMap<>();
    /** Each item's size by DynamoDB's rule, kept with it so the partition list adds numbers instead of items. */
    private final ConcurrentHashMap<PrimaryKey, Long> sizes = new ConcurrentHashMap<>();

    TableMirror(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    String table() {
        return table;
    }

    DynamoDbClient client() {
        return client;
    }

    /** Reads the whole table again (a paginated, consistent Scan) and replaces the copy. */
    synchronized int reload() {
        items.clear();
        sizes.clear();
        int[] count = {0};
        scan(item -> {
            put(item);
            count[0]++;
        });
        return count[0];
    }

    /** Every item of the table, page by page (a consistent Scan): for a reload, and for a fixture export. */
    void scan(java.util.function.Consumer<Map<String, AttributeValue>> each) {
        Map<String, AttributeValue> start = null;
        do {
            ScanResponse page = client.scan(ScanRequest.builder()
                    .tableName(table)
                    .consistentRead(true)
                    .exclusiveStartKey(start)
                    .build());
            page.items().forEach(each);
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    /** Partition key to its items (a live view; callers only read it). */
    NavigableMap<String, ConcurrentSkipListMap<String, Map<String, AttributeValue>>> partitions() {
        return items;
    }

    long size(PrimaryKey key) {
        return sizes.getOrDefault(key, 0L);
    }

    /** The item as the console last saw it; null when it saw none. */
    Map<String, AttributeValue> lastSeen(PrimaryKey key) {
        Map<String, Map<String, AttributeValue>> partition = items.get(key.partition());
        return partition == null ? null : partition.get(key.sort());
    }

    /** Reads the item now (consistent GetItem) and keeps what it read: the "after" of a write. */
    Map<String, AttributeValue> refresh(PrimaryKey key) {
        Map<String, AttributeValue> item = client.getItem(GetItemRequest.builder()
                        .tableName(table)
                        .key(keyOf(key))
                        .consistentRead(true)
                        .build())
                .item();
        if (item == null || item.isEmpty()) {
            remove(key);
            return null;
        }
        put(item);
        return item;
    }

    /**
     * Reads a partition afresh, every page of it in sort-key order (consistent Queries), keeps what it read,
     * and returns it: the items of one collection block.
     */
    List<Map<String, AttributeValue>> readPartition(String partition) {
        List<Map<String, AttributeValue>> read = new ArrayList<>();
        Expression condition =
                KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition).build();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = client.query(QueryRequest.builder()
                    .tableName(table)
                    .keyConditionExpression(condition.expression())
                    .expressionAttributeNames(condition.names())
                    .expressionAttributeValues(condition.valuesOrNull())
                    .consistentRead(true)
                    .exclusiveStartKey(start)
                    .build());
            read.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        ConcurrentSkipListMap<String, Map<String, AttributeValue>> fresh = new ConcurrentSkipListMap<>();
        read.forEach(item -> fresh.put(item.get(KeyCodec.SORT_KEY).s(), item));
        ConcurrentSkipListMap<String, Map<String, AttributeValue>> old =
                fresh.isEmpty() ? items.remove(partition) : items.put(partition, fresh);
        if (old != null) {
            old.keySet().forEach(sort -> sizes.remove(new PrimaryKey(partition, sort)));
        }
        read.forEach(item -> sizes.put(keyOf(item), dev.oneread.store.ItemSize.bytes(item)));
        return read;
    }

    /** Each item as the last of {@code changes} to it left it: the engine's change feed, in its order. */
    void apply(List<EngineChanges.Change> changes) {
        for (EngineChanges.Change change : changes) {
            if (change.newItem() == null) {
                remove(change.key());
            } else {
                put(change.newItem());
            }
        }
    }

    void put(Map<String, AttributeValue> item) {
        PrimaryKey key = keyOf(item);
        items.computeIfAbsent(key.partition(), p -> new ConcurrentSkipListMap<>())
                .put(key.sort(), item);
        sizes.put(key, dev.oneread.store.ItemSize.bytes(item));
    }

    private void remove(PrimaryKey key) {
        items.computeIfPresent(key.partition(), (p, partition) -> {
            partition.remove(key.sort());
            return partition.isEmpty() ? null : partition;
        });
        sizes.remove(key);
    }

    static PrimaryKey keyOf(Map<String, AttributeValue> item) {
        return new PrimaryKey(
                item.get(KeyCodec.PARTITION_KEY).s(),
                item.get(KeyCodec.SORT_KEY).s());
    }

    static Map<String, AttributeValue> keyOf(PrimaryKey key) {
        return Map.of(
                KeyCodec.PARTITION_KEY,
                AttributeValue.fromS(key.partition()),
                KeyCodec.SORT_KEY,
                AttributeValue.fromS(key.sort()));
    }
}
