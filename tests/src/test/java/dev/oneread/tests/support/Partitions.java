package dev.oneread.tests.support;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Raw reads for checking what the functions did, written by hand on purpose: an independent path to the
 * data, so a bug in the store's request building cannot hide itself. These requests carry no tally and so
 * never count toward a function's audit.
 */
public final class Partitions {
    /** DynamoDB's limit for a partition key value: no write can reach a longer one. */
    private static final int MAX_PARTITION_KEY_BYTES = 2048;

    private Partitions() {}

    /** Every item of one partition, in ascending sort key order, over as many pages as it takes. */
    public static List<Map<String, AttributeValue>> items(DynamoDbClient client, String partition) {
        return client
                .queryPaginator(q -> q.tableName(TestEngine.TABLE)
                        .keyConditionExpression("EntityRef = :pk")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition))))
                .items()
                .stream()
                .toList();
    }

    /**
     * The items of each of these partitions, for before/after comparisons of what a request could have
     * touched: one Query per partition, never a scan of the shared table (whose size grows with every test).
     * Keys longer than DynamoDB allows are left out, since nothing can be stored under them.
     */
    public static Map<String, List<Map<String, AttributeValue>>> snapshot(
            DynamoDbClient client, Collection<String> partitions) {
        Map<String, List<Map<String, AttributeValue>>> out = new TreeMap<>();
        for (String partition : partitions) {
            if (partition.getBytes(StandardCharsets.UTF_8).length <= MAX_PARTITION_KEY_BYTES) {
                out.put(partition, items(client, partition));
            }
        }
        return out;
    }

    /**
     * The partitions requests naming these workspace ids could write, valid ids or not: the id as sent, and
     * the id a lax parser would make of it (lower-cased, percent-decoded). A hostile id that slipped through
     * validation would land in one of them.
     */
    public static Set<String> reachableFrom(Collection<String> workspaceIds) {
        Set<String> partitions = new TreeSet<>();
        for (String id : workspaceIds) {
            partitions.add("WS#" + id);
            partitions.add("WS#" + id.toLowerCase(Locale.ROOT));
            partitions.add("WS#" + percentDecoded(id));
        }
        return partitions;
    }

    private static String percentDecoded(String id) {
        try {
            return URLDecoder.decode(id, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return id;
        }
    }
}
