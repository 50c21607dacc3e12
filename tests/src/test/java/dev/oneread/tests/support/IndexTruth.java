package dev.oneread.tests.support;

import dev.oneread.keys.KeyCodec;
import dev.oneread.model.ProjectStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The truth the index is checked against: a brute-force, consistent Scan of the table (tests only). The index trails
 * the table, as DynamoDB's does (the engine's index lag, {@link TestEngine#lag()}): a test that reads it after writing
 * waits on the index's own answer ({@link #awaitSettled}), never on a clock.
 */
public final class IndexTruth {
    private IndexTruth() {}

    /**
     * Waits until the index holds exactly the table's index entries: every item that carries index keys, at those
     * keys, and nothing else (a Scan of each, compared). With the five-minute failsafe; only a hang reaches it.
     */
    public static void awaitSettled(DynamoDbClient client, String table) throws InterruptedException {
        Eventually.await(() -> entries(client, table, true).equals(entries(client, table, false)), Eventually.FAILSAFE);
    }

    /** Each index entry's table key and index key, read from the index, or from the table's items that carry one. */
    private static Set<List<String>> entries(DynamoDbClient client, String table, boolean fromIndex) {
        Set<List<String>> entries = new HashSet<>();
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder scan = ScanRequest.builder().tableName(table).exclusiveStartKey(start);
            var page = client.scan(
                    fromIndex
                            ? scan.indexName(KeyCodec.INDEX_NAME).build()
                            : scan.consistentRead(true).build());
            for (Map<String, AttributeValue> item : page.items()) {
                if (item.containsKey(KeyCodec.INDEX_PARTITION_KEY)) {
                    entries.add(List.of(
                            item.get(KeyCodec.PARTITION_KEY).s(),
                            item.get(KeyCodec.SORT_KEY).s(),
                            item.get(KeyCodec.INDEX_PARTITION_KEY).s(),
                            item.get(KeyCodec.INDEX_SORT_KEY).s()));
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return entries;
    }

    /** The ids of every project with this status in the table, newest first; tombstones are no projects. */
    public static List<String> projects(DynamoDbClient client, String table, ProjectStatus status) {
        List<String> ids = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            var page = client.scan(ScanRequest.builder()
                    .tableName(table)
                    .consistentRead(true)
                    .exclusiveStartKey(start)
                    .build());
            for (Map<String, AttributeValue> item : page.items()) {
                String sort = item.get(KeyCodec.SORT_KEY).s();
                if (sort.startsWith("PROJ#")
                        && !item.containsKey("deletedDuringMove")
                        && status.name().equals(item.get("status").s())) {
                    ids.add(sort.substring("PROJ#".length()));
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        ids.sort(Comparator.reverseOrder());
        return ids;
    }
}
