package dev.oneread.tests.support;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.WorkspaceId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * A collection's sort keys in the console's order, from the test's own Queries of the table: its readable items
 * ({@code META} and on) by sort key, then its bookkeeping. The truth a console page and its positions are held to.
 *
 * <pre>{@code List<String> keys = CollectionOrder.sortKeys(client, table, CollectionOrder.partitions("acme", 10));}</pre>
 */
public final class CollectionOrder {
    private CollectionOrder() {}

    /** A tenant's partitions: its own, then its {@code shards} shards. */
    public static List<String> partitions(String tenant, int shards) {
        List<String> out = new ArrayList<>();
        out.add(KeyCodec.workspacePartition(WorkspaceId.of(tenant)));
        for (int shard = 1; shard <= shards; shard++) {
            out.add(KeyCodec.shardPartition(WorkspaceId.of(tenant), shard));
        }
        return out;
    }

    /** The sort keys of every item of {@code partitions}, merged in the console's order. */
    public static List<String> sortKeys(DynamoDbClient client, String table, List<String> partitions) {
        List<String> out = new ArrayList<>();
        for (String partition : partitions) {
            Map<String, AttributeValue> start = null;
            do {
                QueryResponse response = client.query(QueryRequest.builder()
                        .tableName(table)
                        .keyConditionExpression("#p = :p")
                        .projectionExpression("#s")
                        .expressionAttributeNames(Map.of("#p", KeyCodec.PARTITION_KEY, "#s", KeyCodec.SORT_KEY))
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(partition)))
                        .exclusiveStartKey(start)
                        .build());
                response.items().forEach(i -> out.add(i.get(KeyCodec.SORT_KEY).s()));
                start = response.hasLastEvaluatedKey()
                                && !response.lastEvaluatedKey().isEmpty()
                        ? response.lastEvaluatedKey()
                        : null;
            } while (start != null);
        }
        String meta = KeyCodec.workspaceSortKey();
        out.sort(Comparator.comparing((String s) -> s.compareTo(meta) >= 0 ? 0 : 1)
                .thenComparing(Comparator.naturalOrder()));
        return out;
    }
}
