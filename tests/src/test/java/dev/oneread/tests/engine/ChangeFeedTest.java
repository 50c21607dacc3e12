package dev.oneread.tests.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.tests.support.StartsProcesses;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The engine's change feed ({@code GET /_oneread/changes}, local/engine/changes.js): one record per write served,
 * with the item before and after as dynalite holds it; nothing for a refused write; the newest 10,000 kept, so a
 * reader that fell further behind sees that it missed records. An engine of its own: no other writes meanwhile.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@StartsProcesses
class ChangeFeedTest {
    private static final String TABLE = "changes";
    private static final int RING = 10_000;

    private DynaliteEngine engine;
    private DynamoDbClient client;

    @BeforeAll
    void start() {
        engine = DynaliteEngine.start(ProjectRoot.find(), null, PartitionLimits.OFF);
        client = DynamoDbClients.local(engine.endpoint());
        client.createTable(b -> b.tableName(TABLE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE)));
    }

    @AfterAll
    void stop() {
        engine.close();
    }

    @Test
    @Order(1)
    void everyServedWrite_shouldAppendItsImages_andARefusedOneNothing() throws IOException {
        // WHEN an item is put (a number as 1.50), updated, refused a put by its condition, then deleted
        Map<String, AttributeValue> key = Map.of("pk", s("p"), "sk", s("1"));
        client.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("p"), "sk", s("1"), "n", n("1.50"))));
        client.updateItem(b -> b.tableName(TABLE)
                .key(key)
                .updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", s("x"))));
        try {
            client.putItem(b -> b.tableName(TABLE).item(key).conditionExpression("attribute_not_exists(pk)"));
        } catch (ConditionalCheckFailedException expected) {
            // refused: no record
        }
        client.deleteItem(b -> b.tableName(TABLE).key(key));
        // THEN three records, in order, each with the item before and after that write as the engine holds it
        Map<String, Object> feed = changes(0, 100);
        List<Map<String, Object>> records = records(feed);
        assertThat(records)
                .extracting(r -> r.get("operation") + " " + r.get("eventName"))
                .containsExactly("PutItem INSERT", "UpdateItem MODIFY", "DeleteItem REMOVE");
        assertThat(records).extracting(r -> r.get("seq")).containsExactly(1, 2, 3);
        assertThat(records)
                .allSatisfy(r ->
                        assertThat(r.get("keys")).isEqualTo(Map.of("pk", Map.of("S", "p"), "sk", Map.of("S", "1"))));
        Map<String, Object> put = Map.of("pk", Map.of("S", "p"), "sk", Map.of("S", "1"), "n", Map.of("N", "1.5"));
        Map<String, Object> updated =
                Map.of("pk", Map.of("S", "p"), "sk", Map.of("S", "1"), "n", Map.of("N", "1.5"), "v", Map.of("S", "x"));
        assertThat(records.get(0).get("oldImage")).isNull();
        assertThat(records.get(0).get("newImage")).isEqualTo(put);
        assertThat(records.get(1).get("oldImage")).isEqualTo(put);
        assertThat(records.get(1).get("newImage")).isEqualTo(updated);
        assertThat(records.get(2).get("oldImage")).isEqualTo(updated);
        assertThat(records.get(2).get("newImage")).isNull();
        assertThat(feed.get("first")).isEqualTo(1);
        assertThat(feed.get("last")).isEqualTo(3);
        // AND a reader asks for what came after what it saw
        assertThat(records(changes(2, 100))).extracting(r -> r.get("seq")).containsExactly(3);
    }

    @Test
    @Order(2)
    void aReaderBehindTheRing_shouldSeeThatItMissedRecords() throws IOException {
        // GIVEN 50 more writes than the feed keeps, 25 a BatchWriteItem, each item a record of its own
        int writes = RING + 50;
        for (int i = 0; i < writes; i += 25) {
            List<WriteRequest> batch = new ArrayList<>();
            for (int j = i; j < Math.min(i + 25, writes); j++) {
                batch.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(Map.of("pk", s("ring"), "sk", s(String.format("%05d", j))))
                                .build())
                        .build());
            }
            client.batchWriteItem(b -> b.requestItems(Map.of(TABLE, batch)));
        }
        // WHEN a reader that saw record 3 asks for more
        Map<String, Object> feed = changes(3, 1000);
        // THEN the oldest kept is past 4: it missed records, and the newest 10,000 are kept
        long last = 3 + writes;
        assertThat(((Number) feed.get("last")).longValue()).isEqualTo(last);
        assertThat(((Number) feed.get("first")).longValue())
                .isEqualTo(last - RING + 1)
                .isGreaterThan(4);
        List<Map<String, Object>> records = records(feed);
        assertThat(records).hasSize(1000);
        assertThat(((Number) records.get(0).get("seq")).longValue()).isEqualTo(last - RING + 1);
        assertThat(records.get(0).get("operation")).isEqualTo("BatchWriteItem");
        // AND the newest record is the last item written
        List<Map<String, Object>> newest = records(changes(last - 1, 1000));
        assertThat(newest).hasSize(1);
        assertThat(newest.get(0).get("keys"))
                .isEqualTo(Map.of("pk", Map.of("S", "ring"), "sk", Map.of("S", String.format("%05d", writes - 1))));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(Map<String, Object> feed) {
        return (List<Map<String, Object>>) feed.get("records");
    }

    private Map<String, Object> changes(long after, int limit) throws IOException {
        URI uri = engine.endpoint().resolve("/_oneread/changes?after=" + after + "&limit=" + limit);
        HttpURLConnection connection = (HttpURLConnection) uri.toURL().openConnection();
        assertThat(connection.getResponseCode()).isEqualTo(HttpURLConnection.HTTP_OK);
        try (InputStream in = connection.getInputStream()) {
            return JSON.std.mapFrom(in);
        }
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }
}
