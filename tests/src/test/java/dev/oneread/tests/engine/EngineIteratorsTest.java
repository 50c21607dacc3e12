package dev.oneread.tests.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.oneread.local.ProjectRoot;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.StartsProcesses;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Guards the engine against dynalite 4.0.0's open iterators (local/engine/iterators.js): every Query and Scan used
 * to leave its store iterator open, and on disk each one held a LevelDB snapshot that kept every later delete as a
 * marker for every read to walk; a million-project migration slowed by half in 13 minutes. After reads of every
 * kind (a page that stops early, a read to the end, forward, reverse, on an index, a scan), none may stay open.
 * An engine of its own, on disk (classic-level) and in memory (memory-level): nothing else reads from it meanwhile.
 */
@StartsProcesses
class EngineIteratorsTest {
    private static final String TABLE = "iterators";
    private static final int ITEMS = 30;
    private static final int PAGE = 5;

    @ParameterizedTest(name = "on disk: {0}")
    @ValueSource(booleans = {true, false})
    void everyRead_shouldCloseItsIterator(boolean onDisk) throws IOException, InterruptedException {
        Path data = onDisk ? Files.createTempDirectory("oneread-iterators") : null;
        if (data != null) {
            data.toFile().deleteOnExit();
        }
        try (DynaliteEngine engine = DynaliteEngine.start(ProjectRoot.find(), data, PartitionLimits.OFF)) {
            DynamoDbClient client = DynamoDbClients.local(engine.endpoint());
            table(client);
            for (int i = 0; i < ITEMS; i++) {
                String sk = String.format("s%03d", i);
                client.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("p"), "sk", s(sk), "g", s("g"))));
            }

            QueryRequest query = QueryRequest.builder()
                    .tableName(TABLE)
                    .keyConditionExpression("pk = :p")
                    .expressionAttributeValues(Map.of(":p", s("p")))
                    .build();
            QueryRequest onIndex = query.toBuilder()
                    .indexName("byG")
                    .keyConditionExpression("g = :g")
                    .expressionAttributeValues(Map.of(":g", s("g")))
                    .build();
            // (the index trails the table, as DynamoDB's does: the reads start once it shows every item; the waiting
            // reads close their iterators too)
            Eventually.await(() -> client.query(onIndex).count() == ITEMS, Eventually.FAILSAFE);
            assertThat(client.query(query.toBuilder().limit(PAGE).build()).count())
                    .isEqualTo(PAGE);
            assertThat(client.query(query.toBuilder()
                                    .limit(PAGE)
                                    .scanIndexForward(false)
                                    .build())
                            .count())
                    .isEqualTo(PAGE);
            assertThat(client.query(query).count()).isEqualTo(ITEMS);
            assertThat(client.query(onIndex.toBuilder().limit(PAGE).build()).count())
                    .isEqualTo(PAGE);
            assertThat(client.query(onIndex).count()).isEqualTo(ITEMS);
            assertThat(client.scan(b -> b.tableName(TABLE).limit(PAGE)).count()).isEqualTo(PAGE);
            assertThat(client.scan(b -> b.tableName(TABLE)).count()).isEqualTo(ITEMS);
            client.deleteItem(b -> b.tableName(TABLE).key(Map.of("pk", s("p"), "sk", s("s000"))));

            assertThat(openIterators(engine.endpoint())).isZero();
        }
    }

    private static void table(DynamoDbClient client) {
        client.createTable(b -> b.tableName(TABLE)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("g").attributeType(ScalarAttributeType.S))
                .keySchema(
                        k -> k.attributeName("pk").keyType(KeyType.HASH),
                        k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .globalSecondaryIndexes(i -> i.indexName("byG")
                        .keySchema(
                                k -> k.attributeName("g").keyType(KeyType.HASH),
                                k -> k.attributeName("sk").keyType(KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
    }

    /** What the engine reports of itself at GET /_oneread/engine. */
    private static long openIterators(URI endpoint) throws IOException {
        HttpURLConnection connection =
                (HttpURLConnection) endpoint.resolve("/_oneread/engine").toURL().openConnection();
        assertThat(connection.getResponseCode()).isEqualTo(HttpURLConnection.HTTP_OK);
        try (InputStream in = connection.getInputStream()) {
            return ((Number) JSON.std.mapFrom(in).get("openIterators")).longValue();
        }
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
