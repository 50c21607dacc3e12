package dev.oneread.tests;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Raw reads for checking what the functions did, written by hand on purpose: an independent path to the
 * data, so a bug in the store's request building cannot hide itself. These requests carry no tally and so
 * never count toward a function's audit.
 */
final class Partitions {
    private Partitions() {
    }

    /** Every item of one partition, in ascending sort key order. */
    static List<Map<String, AttributeValue>> items(DynamoDbClient client, String partition) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = client.query(QueryRequest.builder()
                    .tableName(TestEngine.TABLE)
                    .keyConditionExpression("EntityRef = :pk")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition)))
                    .exclusiveStartKey(start)
                    .build());
            out.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return out;
    }

    /** The whole table, for before/after comparisons. Tests only: no request path ever scans. */
    static List<Map<String, AttributeValue>> dump(DynamoDbClient client) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            ScanResponse page = client.scan(ScanRequest.builder().tableName(TestEngine.TABLE)
                    .exclusiveStartKey(start).build());
            out.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return out;
    }
}
