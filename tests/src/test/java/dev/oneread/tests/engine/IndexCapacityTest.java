package dev.oneread.tests.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.oneread.tests.support.TestEngine;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The engine reports a write's global secondary index units as DynamoDB does (Developer Guide, "Provisioned
 * throughput considerations for global secondary indexes"): CapacityUnits is the write's total, the index writes
 * included, and with INDEXES the table's and each index's share. An index put costs 1 WCU per KB of the entry as the
 * index holds it (its projection, keys included); a write that moves the index key costs a delete and a put there; a
 * write that only changes projected attributes one put; one that removes the entry one delete; and one that leaves the
 * index as it was nothing. A refused conditional write is billed to the table only. A Query that reads nothing is
 * billed DynamoDB's minimum read.
 *
 * <p>Each table here has an index {@value #INDEX} on {@code g} that projects {@code p} and not {@code data}: an item's
 * {@code data} weighs on the table's units and never on the index's.
 */
class IndexCapacityTest {
    private static final String INDEX = "byGroup";
    private static final int KIB = 1024;
    private static final AtomicInteger tables = new AtomicInteger();

    private static TestEngine engine;
    private static DynamoDbClient client;

    @BeforeAll
    static void engine() {
        engine = TestEngine.get();
        client = engine.client;
    }

    @Test
    void putItem_shouldAddTheIndexPut_sizedOnTheProjectedEntry() {
        // GIVEN an item of 3 KiB whose index entry (keys, g and p, without data) is under 1 KiB
        String table = table();
        // WHEN it is put
        ConsumedCapacity consumed = put(table, item("a", "grp", "x", 3 * KIB));
        // THEN 3 WCU on the table and 1 on the index: 4 in all
        assertThat(consumed.capacityUnits()).isEqualTo(4.0);
        assertThat(consumed.table()).isEqualTo(units(3.0));
        assertThat(consumed.globalSecondaryIndexes()).isEqualTo(Map.of(INDEX, units(1.0)));
    }

    @Test
    void putItem_shouldBillEachKibOfTheProjectedAttributes() {
        // GIVEN an item whose projected p alone is 2 KiB (and more than 2 with the keys)
        String table = table();
        // WHEN it is put
        ConsumedCapacity consumed = put(table, item("a", "grp", "x".repeat(2 * KIB), 0));
        // THEN 3 WCU on the table and 3 on the index: its entry is over 2 KiB too
        assertThat(consumed.table()).isEqualTo(units(3.0));
        assertThat(consumed.globalSecondaryIndexes()).isEqualTo(Map.of(INDEX, units(3.0)));
        assertThat(consumed.capacityUnits()).isEqualTo(6.0);
    }

    @Test
    void putItem_shouldCostTheTableOnly_whenTheItemHasNoIndexKey() {
        String table = table();
        ConsumedCapacity consumed = put(table, item("a", null, "x", 0));
        assertThat(consumed.capacityUnits()).isEqualTo(1.0);
        assertThat(consumed.table()).isEqualTo(units(1.0));
        assertThat(consumed.hasGlobalSecondaryIndexes()).isFalse();
    }

    @Test
    void updateItem_shouldCostADeleteAndAPut_whenItMovesTheIndexKey() {
        // GIVEN an indexed item
        String table = table();
        put(table, item("a", "old", "x", 0));
        // WHEN its index key changes
        ConsumedCapacity consumed = update(table, "a", "SET g = :v", "new");
        // THEN 1 WCU on the table, 2 on the index (the old entry deleted, the new one put): 3
        assertThat(consumed.capacityUnits()).isEqualTo(3.0);
        assertThat(consumed.table()).isEqualTo(units(1.0));
        assertThat(consumed.globalSecondaryIndexes()).isEqualTo(Map.of(INDEX, units(2.0)));
    }

    @Test
    void updateItem_shouldCostOnePut_whenItChangesAProjectedAttributeOnly() {
        String table = table();
        put(table, item("a", "grp", "x", 0));
        ConsumedCapacity consumed = update(table, "a", "SET p = :v", "y");
        assertThat(consumed.capacityUnits()).isEqualTo(2.0);
        assertThat(consumed.globalSecondaryIndexes()).isEqualTo(Map.of(INDEX, units(1.0)));
    }

    @Test
    void updateItem_shouldCostTheTableOnly_whenTheIndexEntryStaysTheSame() {
        // GIVEN an indexed item WHEN an attribute the index does not project changes, or a projected one is set to
        // the value it has
        String table = table();
        put(table, item("a", "grp", "x", 0));
        ConsumedCapacity unprojected = update(table, "a", "SET #data = :v", "other");
        ConsumedCapacity same = update(table, "a", "SET p = :v", "x");
        // THEN the table's unit only
        assertThat(unprojected.capacityUnits()).isEqualTo(1.0);
        assertThat(unprojected.hasGlobalSecondaryIndexes()).isFalse();
        assertThat(same.capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void updateItem_shouldCostOneDelete_whenItRemovesTheIndexKey() {
        String table = table();
        put(table, item("a", "grp", "x", 0));
        ConsumedCapacity consumed = update(table, "a", "REMOVE g", null);
        assertThat(consumed.capacityUnits()).isEqualTo(2.0);
        assertThat(consumed.globalSecondaryIndexes()).isEqualTo(Map.of(INDEX, units(1.0)));
    }

    @Test
    void deleteItem_shouldCostTheIndexDelete_whenTheItemWasIndexed() {
        String table = table();
        put(table, item("indexed", "grp", "x", 0));
        put(table, item("plain", null, "x", 0));
        assertThat(delete(table, "indexed").capacityUnits()).isEqualTo(2.0);
        assertThat(delete(table, "plain").capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void totalCapacity_shouldIncludeTheIndexWrites_withoutThePerIndexBreakdown() {
        // GIVEN a client that asks for TOTAL, as oneread's store does
        String table = table();
        // WHEN an indexed item is put
        ConsumedCapacity consumed = client.putItem(b -> b.tableName(table)
                        .item(item("a", "grp", "x", 0))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        // THEN the total counts the index put; the breakdown is not sent
        assertThat(consumed.capacityUnits()).isEqualTo(2.0);
        assertThat(consumed.table()).isNull();
        assertThat(consumed.hasGlobalSecondaryIndexes()).isFalse();
    }

    @Test
    void batchWriteItem_shouldSumEachItemsTableAndIndexUnitsPerTable() {
        // GIVEN an indexed item to delete
        String table = table();
        put(table, item("gone", "grp", "x", 0));
        // WHEN one batch puts an indexed item, puts an unindexed one and deletes the indexed one
        List<WriteRequest> writes = List.of(
                WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(item("new", "grp", "x", 0))
                                .build())
                        .build(),
                WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(item("plain", null, "x", 0))
                                .build())
                        .build(),
                WriteRequest.builder()
                        .deleteRequest(DeleteRequest.builder().key(key("gone")).build())
                        .build());
        List<ConsumedCapacity> consumed = client.batchWriteItem(b ->
                        b.requestItems(Map.of(table, writes)).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        // THEN one entry for the table: 3 table units, 2 index units (a put, a delete)
        assertThat(consumed).hasSize(1);
        assertThat(consumed.get(0).tableName()).isEqualTo(table);
        assertThat(consumed.get(0).capacityUnits()).isEqualTo(5.0);
        assertThat(consumed.get(0).table()).isEqualTo(units(3.0));
        assertThat(consumed.get(0).globalSecondaryIndexes()).isEqualTo(Map.of(INDEX, units(2.0)));
    }

    @Test
    void refusedConditionalWrite_shouldBeBilledToTheTableOnly() {
        // GIVEN an indexed item, and the engine's heat of its index partition
        String table = table();
        String group = "refused-" + table;
        put(table, item("a", group, "x", 0));
        double indexBefore =
                engine.heat().partition(table, INDEX, group).orElseThrow().consumedWrite();
        double tableBefore =
                engine.heat().partition(table, null, "a").orElseThrow().consumedWrite();
        // WHEN a write that would move its index key is refused by its condition
        ConditionalCheckFailedException refused = catchThrowableOfType(
                ConditionalCheckFailedException.class,
                () -> client.updateItem(b -> b.tableName(table)
                        .key(key("a"))
                        .updateExpression("SET g = :v")
                        .conditionExpression("attribute_not_exists(pk)")
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("elsewhere")))));
        // THEN DynamoDB bills the table 1 unit (the item's size), and the index nothing: it was not written
        assertThat(refused).isNotNull();
        assertThat(engine.heat().partition(table, null, "a").orElseThrow().consumedWrite())
                .isEqualTo(tableBefore + 1.0);
        assertThat(engine.heat().partition(table, INDEX, group).orElseThrow().consumedWrite())
                .isEqualTo(indexBefore);
        assertThat(engine.heat().partition(table, INDEX, "elsewhere")).isEmpty();
    }

    @Test
    void emptyQuery_shouldBeBilledTheMinimumRead_onTheTableOrOnTheIndex() {
        String table = table();
        ConsumedCapacity onTable = client.query(b -> b.tableName(table)
                        .keyConditionExpression("pk = :k")
                        .expressionAttributeValues(Map.of(":k", AttributeValue.fromS("nothing")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        ConsumedCapacity onIndex = client.query(b -> b.tableName(table)
                        .indexName(INDEX)
                        .keyConditionExpression("g = :g")
                        .expressionAttributeValues(Map.of(":g", AttributeValue.fromS("nothing")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
        // eventually consistent: half a read unit, on what the Query read
        assertThat(onTable.capacityUnits()).isEqualTo(0.5);
        assertThat(onTable.table()).isEqualTo(units(0.5));
        assertThat(onIndex.capacityUnits()).isEqualTo(0.5);
        assertThat(onIndex.globalSecondaryIndexes()).isEqualTo(Map.of(INDEX, units(0.5)));
    }

    private static ConsumedCapacity put(String table, Map<String, AttributeValue> item) {
        return client.putItem(b -> b.tableName(table).item(item).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
    }

    /** An UpdateItem with INDEXES; {@code value} is {@code :v}'s, or null for an expression without one. */
    private static ConsumedCapacity update(String table, String pk, String expression, String value) {
        Map<String, String> names = expression.contains("#data") ? Map.of("#data", "data") : null;
        Map<String, AttributeValue> values = value == null ? null : Map.of(":v", AttributeValue.fromS(value));
        return client.updateItem(b -> b.tableName(table)
                        .key(key(pk))
                        .updateExpression(expression)
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values)
                        .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
    }

    private static ConsumedCapacity delete(String table, String pk) {
        return client.deleteItem(
                        b -> b.tableName(table).key(key(pk)).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES))
                .consumedCapacity();
    }

    private static Capacity units(double units) {
        return Capacity.builder().capacityUnits(units).build();
    }

    /**
     * An item: key {@code pk}, index key {@code g} (none when null), projected {@code p}, and {@code data} padding
     * the whole item to {@code size} bytes as DynamoDB counts them (none when 0).
     */
    private static Map<String, AttributeValue> item(String pk, String group, String projected, int size) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key(pk));
        item.put("p", AttributeValue.fromS(projected));
        if (group != null) {
            item.put("g", AttributeValue.fromS(group));
        }
        if (size > 0) {
            int used = "pk".length() + pk.length() + "p".length() + projected.length() + "data".length();
            if (group != null) {
                used += "g".length() + group.length();
            }
            item.put("data", AttributeValue.fromS("x".repeat(size - used)));
        }
        return item;
    }

    private static Map<String, AttributeValue> key(String pk) {
        return Map.of("pk", AttributeValue.fromS(pk));
    }

    /** A table of its own: key pk; index byGroup on g, projecting p (INCLUDE), so never data. */
    private static String table() {
        String name = "index-capacity-" + tables.incrementAndGet();
        client.createTable(b -> b.tableName(name)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(GroupedTables.attribute("pk"), GroupedTables.attribute("g"))
                .keySchema(KeySchemaElement.builder()
                        .attributeName("pk")
                        .keyType(KeyType.HASH)
                        .build())
                .globalSecondaryIndexes(GlobalSecondaryIndex.builder()
                        .indexName(INDEX)
                        .keySchema(KeySchemaElement.builder()
                                .attributeName("g")
                                .keyType(KeyType.HASH)
                                .build())
                        .projection(Projection.builder()
                                .projectionType(ProjectionType.INCLUDE)
                                .nonKeyAttributes("p")
                                .build())
                        .build()));
        return name;
    }
}
