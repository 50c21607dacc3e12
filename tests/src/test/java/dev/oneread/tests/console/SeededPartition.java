package dev.oneread.tests.console;

import dev.oneread.tests.support.TestEngine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Items written straight to the engine for the console's read tests: {@code count} items {@code ITEM#0000}... in one
 * partition (and, unless {@code indexPartition} is null, in one partition of GSI1), {@code status} "hit" where
 * {@code hit} says and "miss" elsewhere (an attribute the index projects), a {@code name} with quotes in it and a
 * numeric {@code version}.
 *
 * <pre>{@code SeededPartition.write(engine, table, "FILL#x", null, 200, i -> i % 10 == 0);}</pre>
 */
final class SeededPartition {
    private static final int BATCH = 25;

    private SeededPartition() {}

    static void write(
            TestEngine engine, String table, String partition, String indexPartition, int count, IntPredicate hit) {
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String sort = sort(i);
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("EntityRef", AttributeValue.fromS(partition));
            item.put("Detail", AttributeValue.fromS(sort));
            if (indexPartition != null) {
                item.put("GSI1PK", AttributeValue.fromS(indexPartition));
                item.put("GSI1SK", AttributeValue.fromS(sort));
            }
            item.put("status", AttributeValue.fromS(hit.test(i) ? "hit" : "miss"));
            item.put("name", AttributeValue.fromS("item \"" + i + "\" it's"));
            item.put("version", AttributeValue.fromN(String.valueOf(i)));
            batch.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(item).build())
                    .build());
            if (batch.size() == BATCH || i == count - 1) {
                engine.client.batchWriteItem(BatchWriteItemRequest.builder()
                        .requestItems(Map.of(table, batch))
                        .build());
                batch = new ArrayList<>();
            }
        }
    }

    /** The sort key of item {@code i}, as the tests name the items they expect. */
    static String sort(int i) {
        return String.format("ITEM#%04d", i);
    }
}
