package dev.oneread.tests.support;

import dev.oneread.keys.KeyCodec;
import dev.oneread.model.ProjectStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/** The truth the index is checked against: a brute-force, consistent Scan of the table (tests only). */
public final class IndexTruth {
    private IndexTruth() {}

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
