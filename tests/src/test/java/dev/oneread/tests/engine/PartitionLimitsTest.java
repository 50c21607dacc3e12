package dev.oneread.tests.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.oneread.local.engine.EngineHeat;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.OtherClient;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.OnDemandThroughput;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingException;
import software.amazon.awssdk.services.dynamodb.model.ThrottlingReason;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The local engine throttles as DynamoDB does, seen through the SDK: the exception type, its ThrottlingReasons
 * and their resource ARNs, one test per reason the engine emits; BatchWriteItem's UnprocessedItems; and the heat
 * that counts each throttle per partition and reason.
 *
 * <p>The engine runs at {@value #SCALE} of DynamoDB's limits: a partition key value serves {@value #READ_UNITS} read
 * units and {@value #WRITE_UNITS} write units per second, and its bucket holds one second of that. Items are sized to
 * whole kilobytes, so each request consumes a known number of units: one that takes a bucket well below zero makes
 * the next request to that partition a throttle for hundreds of milliseconds, with no sleep and no race.
 */
@StartsProcesses
class PartitionLimitsTest {
    private static final double SCALE = 0.005;
    private static final int READ_UNITS = 15;
    private static final int WRITE_UNITS = 5;
    private static final int KIB = 1024;
    private static final String INDEX = GroupedTables.INDEX;
    private static final AtomicInteger tables = new AtomicInteger();

    private static TestEngine engine;
    /** Retries off: the first throttle is the answer (the factory's client would retry it, by design). */
    private static DynamoDbClient client;

    @BeforeAll
    static void engine() {
        engine = TestEngine.withLimits(SCALE);
        client = OtherClient.at(engine.endpoint);
        assertThat(engine.limits().orElseThrow().writeUnitsPerSecond()).isEqualTo(WRITE_UNITS);
        assertThat(engine.limits().orElseThrow().readUnitsPerSecond()).isEqualTo(READ_UNITS);
    }

    // Guards issue 23: at --partition-limits=0.02 a job at the template's quarter asked for 25 times its partition.
    @Test
    void jobShare_shouldBeTheSameFractionOfTheEnginesScaledPartitions() {
        // a quarter of DynamoDB's partition is a quarter of the engine's at any scale: the fraction times the scale
        assertThat(new PartitionLimits(0.02).scaledJobShare("0.25")).isEqualTo("0.005");
        assertThat(new PartitionLimits(0.05).scaledJobShare("1")).isEqualTo("0.05");
        // at DynamoDB's own limits, and with none, it stays
        assertThat(PartitionLimits.DYNAMODB.scaledJobShare("0.25")).isEqualTo("0.25");
        assertThat(PartitionLimits.OFF.scaledJobShare("0.25")).isEqualTo("0.25");
    }

    @Test
    void putItem_shouldThrottleWithTheTableWriteReason_whenItsPartitionIsHot() {
        // GIVEN a write that takes the partition's bucket to 5 - 10 = -5 units (one second of debt)
        String table = table(null);
        assertThat(put(table, item("hot", "1", null, 10 * KIB))).isEqualTo(10.0);
        // WHEN the partition is written again
        ProvisionedThroughputExceededException e = catchThrowableOfType(
                ProvisionedThroughputExceededException.class, () -> put(table, item("hot", "2", null, KIB)));
        // THEN DynamoDB's exception, reason and resource; the SDK's retry strategies see a throttle
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons()).containsExactly(reason("TableWriteKeyRangeThroughputExceeded", arn(table)));
        assertThat(e.isThrottlingException()).isTrue();
        // AND another partition key value of the same table is not throttled
        assertThat(put(table, item("cold", "1", null, KIB))).isEqualTo(1.0);
    }

    @Test
    void getItem_shouldThrottleWithTheTableReadReason_whenItsPartitionIsHot() {
        // GIVEN a strongly consistent read of a 100 KiB item: 25 units from a bucket of 15
        String table = table(null);
        put(table, item("hot", "1", null, 100 * KIB));
        assertThat(get(table, "hot", "1")).isEqualTo(25.0);
        // WHEN
        ProvisionedThroughputExceededException e =
                catchThrowableOfType(ProvisionedThroughputExceededException.class, () -> get(table, "hot", "1"));
        // THEN
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons()).containsExactly(reason("TableReadKeyRangeThroughputExceeded", arn(table)));
    }

    @Test
    void executeStatement_shouldThrottleAsItsCall_whenItsPartitionIsHot() {
        // GIVEN a PartiQL INSERT of 10 KiB that takes the partition's bucket to 5 - 10 = -5 units (the engine
        // translates it into a PutItem, which its partition limits apply to)
        String table = table(null);
        ExecuteStatementResponse inserted = client.executeStatement(b -> b.statement(
                        "INSERT INTO \"" + table + "\" VALUE {'pk': 'hot', 'sk': '1', 'data': ?}")
                .parameters(AttributeValue.fromS("x".repeat(10 * KIB - "pkhotsk1data".length())))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(inserted.consumedCapacity().capacityUnits()).isEqualTo(10.0);
        // WHEN the partition is read by a PartiQL SELECT
        ProvisionedThroughputExceededException e = catchThrowableOfType(
                ProvisionedThroughputExceededException.class,
                () -> client.executeStatement(
                        b -> b.statement("SELECT * FROM \"" + table + "\" WHERE pk = 'hot' AND sk = '1'")
                                .consistentRead(true)));
        // THEN no: the read bucket is untouched by writes. The next write is throttled, DynamoDB's reason and ARN
        assertThat(e).isNull();
        e = catchThrowableOfType(
                ProvisionedThroughputExceededException.class,
                () -> client.executeStatement(
                        b -> b.statement("UPDATE \"" + table + "\" SET n = 1 WHERE pk = 'hot' AND sk = '1'")));
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons()).containsExactly(reason("TableWriteKeyRangeThroughputExceeded", arn(table)));
        assertThat(engine.heat().partition(table, null, "hot").orElseThrow().throttled())
                .isEqualTo(Map.of("TableWriteKeyRangeThroughputExceeded", 1L));
    }

    @Test
    void putItem_shouldThrottleWithTheIndexWriteReason_whenItsIndexPartitionIsHot() {
        // GIVEN a write whose index entry takes the index partition "hot" to 5 - 10 = -5 units
        String table = table(null);
        put(table, item("a", "1", "hot", 10 * KIB));
        // WHEN another table partition writes an item into the same index partition
        ProvisionedThroughputExceededException e = catchThrowableOfType(
                ProvisionedThroughputExceededException.class, () -> put(table, item("b", "1", "hot", KIB)));
        // THEN the table write is throttled by back-pressure, with the index's reason and ARN
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons())
                .containsExactly(reason("IndexWriteKeyRangeThroughputExceeded", arn(table) + "/index/" + INDEX));
        assertThat(e.getMessage()).contains("global secondary indexes");
        // AND the same write outside the hot index partition goes through: 1 WCU on the table, 1 on the index
        assertThat(put(table, item("b", "1", "cold", KIB))).isEqualTo(2.0);
    }

    @Test
    void query_shouldThrottleWithTheIndexReadReason_whenItsIndexPartitionIsHot() throws InterruptedException {
        // GIVEN an index Query of a 200 KiB item: 50 blocks of 4 KiB, eventually consistent, 25 units of 15
        String table = table(null);
        put(table, item("a", "1", "hot", 200 * KIB));
        // (once the index shows it: it trails the table, as DynamoDB's does; a Scan of the index is not limited
        // per partition, so the wait takes nothing from the partition the test drains)
        Eventually.await(
                () -> client.scan(b -> b.tableName(table).indexName(INDEX)).count() == 1, Eventually.FAILSAFE);
        assertThat(queryIndex(table, "hot")).isEqualTo(25.0);
        // WHEN
        ProvisionedThroughputExceededException e =
                catchThrowableOfType(ProvisionedThroughputExceededException.class, () -> queryIndex(table, "hot"));
        // THEN
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons())
                .containsExactly(reason("IndexReadKeyRangeThroughputExceeded", arn(table) + "/index/" + INDEX));
    }

    @Test
    void writes_shouldThrottleWithTheTableWriteCapReason_whenTheOnDemandMaximumIsReached() {
        // GIVEN a table capped at 2 write units per second, and a write of 4 (cold partition, well under its limit)
        String table =
                table(OnDemandThroughput.builder().maxWriteRequestUnits(2L).build());
        put(table, item("a", "1", null, 4 * KIB));
        // WHEN another partition key value is written
        ThrottlingException e =
                catchThrowableOfType(ThrottlingException.class, () -> put(table, item("b", "1", null, KIB)));
        // THEN the table's cap answers: ThrottlingException, not ProvisionedThroughputExceededException
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons())
                .containsExactly(reason("TableWriteMaxOnDemandThroughputExceeded", arn(table)));
        assertThat(e.getMessage()).contains("maximum OnDemandThroughput");
        assertThat(e.isThrottlingException()).isTrue();
        assertThat(count(engine.heat().tables(), table, "TableWriteMaxOnDemandThroughputExceeded"))
                .isEqualTo(1);
    }

    @Test
    void reads_shouldThrottleWithTheTableReadCapReason_whenTheOnDemandMaximumIsReached() {
        // GIVEN a table capped at 1 read unit per second, and a consistent read of an 8 KiB item (2 units)
        String table =
                table(OnDemandThroughput.builder().maxReadRequestUnits(1L).build());
        put(table, item("a", "1", null, 8 * KIB));
        assertThat(get(table, "a", "1")).isEqualTo(2.0);
        // WHEN another partition key value is read
        ThrottlingException e = catchThrowableOfType(ThrottlingException.class, () -> get(table, "b", "1"));
        // THEN
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons()).containsExactly(reason("TableReadMaxOnDemandThroughputExceeded", arn(table)));
    }

    @Test
    void writes_shouldThrottleWithTheIndexWriteCapReason_whenTheIndexsOnDemandMaximumIsReached() {
        // GIVEN an index capped at 2 write units per second (the table uncapped), and a write whose index entry is 4
        String table = table(
                null, OnDemandThroughput.builder().maxWriteRequestUnits(2L).build());
        put(table, item("a", "1", "g1", 4 * KIB));
        // WHEN another table and index partition is written, into the index
        ThrottlingException e =
                catchThrowableOfType(ThrottlingException.class, () -> put(table, item("b", "1", "g2", KIB)));
        // THEN the index's cap answers, naming the index: the table write is throttled by its index
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons())
                .containsExactly(reason("IndexWriteMaxOnDemandThroughputExceeded", arn(table) + "/index/" + INDEX));
        assertThat(e.getMessage()).contains("maximum OnDemandThroughput");
        // AND a write that does not touch the index is not held by its cap
        assertThat(put(table, item("c", "1", null, KIB))).isEqualTo(1.0);
        // AND DescribeTable reports the index's cap, as DynamoDB does
        assertThat(client.describeTable(b -> b.tableName(table))
                        .table()
                        .globalSecondaryIndexes()
                        .get(0)
                        .onDemandThroughput())
                .isEqualTo(OnDemandThroughput.builder().maxWriteRequestUnits(2L).build());
    }

    @Test
    void query_shouldThrottleWithTheIndexReadCapReason_whenTheIndexsOnDemandMaximumIsReached()
            throws InterruptedException {
        // GIVEN an index capped at 1 read unit per second, and an index Query of a 16 KiB item (2 units)
        String table =
                table(null, OnDemandThroughput.builder().maxReadRequestUnits(1L).build());
        put(table, item("a", "1", "g1", 16 * KIB));
        // (the index trails the table by the engine's lag: it is read until it holds the item, a read its cap refuses
        // meanwhile counting as not yet, so the read that finds it is the one that spends the cap)
        double[] found = {0};
        Eventually.await(() -> (found[0] = indexReadOrThrottled(table, "g1")) == 2.0, Eventually.FAILSAFE);
        assertThat(found[0]).isEqualTo(2.0);
        // WHEN another index partition is read
        ThrottlingException e = catchThrowableOfType(ThrottlingException.class, () -> queryIndex(table, "g2"));
        // THEN
        assertThat(e).isNotNull();
        assertThat(e.throttlingReasons())
                .containsExactly(reason("IndexReadMaxOnDemandThroughputExceeded", arn(table) + "/index/" + INDEX));
        // AND the table itself is read as before
        assertThat(get(table, "a", "1")).isEqualTo(4.0);
    }

    @Test
    void burst_shouldThrottleOnOneKey_andNotWhenSpreadOverTenKeys_andHeatCountsEachThrottle() {
        // GIVEN a burst of 10 one-unit writes: twice one partition's second of capacity
        String table = table(null);
        int throttled = 0;
        for (int i = 0; i < 10; i++) {
            try {
                put(table, item("one", Integer.toString(i), null, KIB));
            } catch (ProvisionedThroughputExceededException e) {
                throttled++;
            }
        }
        // WHEN the same burst goes to ten partition key values
        for (int i = 0; i < 10; i++) {
            assertThat(put(table, item("key-" + i, "1", null, KIB))).isEqualTo(1.0);
        }
        // THEN one key throttled (it admits its bucket's 5 units, and what refills meanwhile), ten keys did not
        assertThat(throttled).isBetween(1, 10 - WRITE_UNITS);
        EngineHeat.Snapshot heat = engine.heat();
        EngineHeat.Partition hot = heat.partition(table, null, "one").orElseThrow();
        assertThat(hot.throttled()).isEqualTo(Map.of("TableWriteKeyRangeThroughputExceeded", (long) throttled));
        assertThat(hot.requestsWrite()).isEqualTo(10 - throttled);
        assertThat(hot.consumedWrite()).isEqualTo(10.0 - throttled);
        for (int i = 0; i < 10; i++) {
            assertThat(heat.partition(table, null, "key-" + i).orElseThrow().throttledTotal())
                    .isZero();
        }
    }

    // Issue 40: a key throttled at 143 units a second read 73% (what was accepted); offered is what was asked.
    @Test
    void heat_shouldCountAsOfferedWhatThrottledRequestsWouldHaveConsumed_andAsConsumedOnlyWhatWasServed() {
        // GIVEN a partition in debt after a 10-unit write, and another after a 25-unit strongly consistent read
        String table = table(null);
        assertThat(put(table, item("hot", "1", null, 10 * KIB))).isEqualTo(10.0);
        put(table, item("read", "1", null, 100 * KIB));
        assertThat(get(table, "read", "1")).isEqualTo(25.0);
        // WHEN a 3-unit write and a read are throttled there
        assertThat(catchThrowableOfType(
                        ProvisionedThroughputExceededException.class,
                        () -> put(table, item("hot", "2", null, 3 * KIB))))
                .isNotNull();
        assertThat(catchThrowableOfType(ProvisionedThroughputExceededException.class, () -> get(table, "read", "1")))
                .isNotNull();
        // THEN consumed counts what was served; offered adds the throttled write's 3 units, and for the read (whose
        // item was not read) the partition's mean per admitted read, 25
        EngineHeat.Snapshot heat = engine.heat();
        EngineHeat.Partition hot = heat.partition(table, null, "hot").orElseThrow();
        assertThat(hot.consumedWrite()).isEqualTo(10.0);
        assertThat(hot.offeredWrite()).isEqualTo(13.0);
        EngineHeat.Partition read = heat.partition(table, null, "read").orElseThrow();
        assertThat(read.consumedRead()).isEqualTo(25.0);
        assertThat(read.offeredRead()).isEqualTo(50.0);
    }

    @Test
    void batchWriteItem_shouldReturnTheThrottledItemsAsUnprocessedItems() {
        // GIVEN partition "hot" in debt
        String table = table(null);
        put(table, item("hot", "0", null, 10 * KIB));
        WriteRequest toHot = WriteRequest.builder()
                .putRequest(
                        PutRequest.builder().item(item("hot", "1", null, KIB)).build())
                .build();
        WriteRequest toCold = WriteRequest.builder()
                .putRequest(
                        PutRequest.builder().item(item("cold", "1", null, KIB)).build())
                .build();
        // WHEN one batch writes to it and to a cold partition
        BatchWriteItemResponse response =
                client.batchWriteItem(b -> b.requestItems(Map.of(table, List.of(toHot, toCold))));
        // THEN the call succeeds; the hot item comes back unprocessed, the cold one is written
        assertThat(response.unprocessedItems()).isEqualTo(Map.of(table, List.of(toHot)));
        assertThat(client.getItem(b -> b.tableName(table).key(key("cold", "1"))).hasItem())
                .isTrue();
        assertThat(client.getItem(b -> b.tableName(table).key(key("hot", "1"))).hasItem())
                .isFalse();
        assertThat(engine.heat().partition(table, null, "hot").orElseThrow().throttled())
                .isEqualTo(Map.of("TableWriteKeyRangeThroughputExceeded", 1L));
    }

    /** A table of its own (pk, sk; GSI byGroup on g, projecting all), with the given caps or none. */
    private static String table(OnDemandThroughput caps) {
        return table(caps, null);
    }

    /** The same, with the index capped too ({@code indexCaps}), or not (null). */
    private static String table(OnDemandThroughput caps, OnDemandThroughput indexCaps) {
        return GroupedTables.create(client, "partition-limits-" + tables.incrementAndGet(), caps, indexCaps);
    }

    /**
     * An item of exactly {@code size} bytes as DynamoDB counts them (attribute names plus values), so that a write
     * consumes {@code size / 1 KiB} units and a read {@code size / 4 KiB} (half that, eventually consistent).
     */
    private static Map<String, AttributeValue> item(String pk, String sk, String group, int size) {
        Map<String, AttributeValue> item = new java.util.LinkedHashMap<>(key(pk, sk));
        int used = "pk".length() + pk.length() + "sk".length() + sk.length() + "data".length();
        if (group != null) {
            item.put("g", AttributeValue.fromS(group));
            used += "g".length() + group.length();
        }
        item.put("data", AttributeValue.fromS("x".repeat(size - used)));
        return item;
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("pk", AttributeValue.fromS(pk), "sk", AttributeValue.fromS(sk));
    }

    /** Write units consumed. */
    private static double put(String table, Map<String, AttributeValue> item) {
        return client.putItem(b -> b.tableName(table).item(item).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity()
                .capacityUnits();
    }

    /** Read units consumed by a strongly consistent GetItem. */
    private static double get(String table, String pk, String sk) {
        return client.getItem(b -> b.tableName(table)
                        .key(key(pk, sk))
                        .consistentRead(true)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity()
                .capacityUnits();
    }

    /** Read units consumed by a Query of one index partition. */
    /** An index Query's units, or 0 when the index's cap refused it. */
    private static double indexReadOrThrottled(String table, String group) {
        try {
            return queryIndex(table, group);
        } catch (ThrottlingException e) {
            return 0;
        }
    }

    private static double queryIndex(String table, String group) {
        return client.query(b -> b.tableName(table)
                        .indexName(INDEX)
                        .keyConditionExpression("g = :g")
                        .expressionAttributeValues(Map.of(":g", AttributeValue.fromS(group)))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity()
                .capacityUnits();
    }

    private static long count(List<EngineHeat.Table> heat, String table, String reason) {
        return heat.stream()
                .filter(t -> t.table().equals(table))
                .mapToLong(t -> t.throttled().getOrDefault(reason, 0L))
                .sum();
    }

    /** The table's ARN as the engine describes it: a throttle names the resource by it. */
    private static String arn(String table) {
        String arn = client.describeTable(b -> b.tableName(table)).table().tableArn();
        assertThat(arn).endsWith(":table/" + table);
        return arn;
    }

    private static ThrottlingReason reason(String reason, String resource) {
        return ThrottlingReason.builder().reason(reason).resource(resource).build();
    }
}
