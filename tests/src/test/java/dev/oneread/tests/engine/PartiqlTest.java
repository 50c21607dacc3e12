package dev.oneread.tests.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.oneread.local.engine.EngineHeat;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.TestEngine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementErrorCodeEnum;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DuplicateItemException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * PartiQL's ExecuteStatement on the local engine, whose guard translates each statement into the call DynamoDB makes
 * for it (local/engine/partiql.js, docs/decisions/0004-partiql-in-the-guard.md): each test runs a statement and the
 * plain call beside it, and compares the items, the consumed capacity and what the table holds after; then DynamoDB's
 * errors, and the engine's refusal of the forms it does not translate.
 *
 * <p>Each table is a {@link GroupedTables}: key pk, sk, and an index {@value #INDEX} on g, sk.
 */
class PartiqlTest {
    private static final String INDEX = GroupedTables.INDEX;
    private static final int KIB = 1024;
    private static final AtomicInteger tables = new AtomicInteger();

    private static final TestEngine engine = TestEngine.get();
    private static final DynamoDbClient client = engine.client;

    @Test
    void select_shouldReadAsGetItem_whenTheFullKeyIsGiven() {
        // GIVEN an item of 5 KiB (2 read units consistent, 1 eventually consistent)
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", "grp", 5 * KIB)));
        // WHEN it is selected by its full key, consistently
        ExecuteStatementResponse selected =
                statement("SELECT * FROM \"" + table + "\" WHERE pk = ? AND sk = ?", true, null, null, s("a"), s("1"));
        // THEN the item, and the units of the GetItem of it
        var got = client.getItem(b -> b.tableName(table)
                .key(key("a", "1"))
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(selected.items()).containsExactly(got.item());
        assertThat(selected.consumedCapacity()).isEqualTo(got.consumedCapacity());
        assertThat(selected.consumedCapacity().capacityUnits()).isEqualTo(2.0);
        // AND a missing key is no item and DynamoDB's minimum read, as GetItem bills it
        ExecuteStatementResponse missing =
                statement("SELECT * FROM \"" + table + "\" WHERE pk = 'none' AND sk = '1'", null, null, null);
        assertThat(missing.items()).isEmpty();
        assertThat(missing.consumedCapacity().capacityUnits()).isEqualTo(0.5);
    }

    @Test
    void select_shouldQuery_whenThePartitionKeyIsGiven() {
        // GIVEN five items in partition a, sk 1..5, n 1..5
        String table = fiveItems();
        String from = "SELECT * FROM \"" + table + "\" WHERE pk = 'a' AND ";
        // WHEN selected by a sort key range, a prefix, a comparison, with a filter, and in descending order
        // THEN the items and units of the Query DynamoDB runs for each
        assertSameAsQuery(
                statement(from + "sk BETWEEN '2' AND '4'", null, null, null),
                query(
                        table,
                        "#pk = :pk AND #sk BETWEEN :lo AND :hi",
                        null,
                        Map.of(":lo", s("2"), ":hi", s("4")),
                        true));
        assertSameAsQuery(
                statement(from + "begins_with(sk, ?)", null, null, null, s("3")),
                query(table, "#pk = :pk AND begins_with(#sk, :lo)", null, Map.of(":lo", s("3")), true));
        assertSameAsQuery(
                statement(from + "sk > '3' AND n <= 4", null, null, null),
                query(table, "#pk = :pk AND #sk > :lo", "#n <= :hi", Map.of(":lo", s("3"), ":hi", n(4)), true));
        assertSameAsQuery(
                statement(from + "sk >= '1' ORDER BY sk DESC", null, null, null),
                query(table, "#pk = :pk AND #sk >= :lo", null, Map.of(":lo", s("1")), false));
        // AND a projection keeps the attributes named
        ExecuteStatementResponse projected = statement(
                "SELECT sk, n FROM \"" + table + "\" WHERE pk = 'a' AND sk = '2' AND n = 2", null, null, null);
        assertThat(projected.items()).containsExactly(Map.of("sk", s("2"), "n", n(2)));
    }

    @Test
    void select_shouldPageWithNextToken_asTheQueryPagesWithLimit() {
        // GIVEN five items in one partition
        String table = fiveItems();
        // WHEN they are selected two at a time, each page from the NextToken of the one before
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        String token = null;
        do {
            ExecuteStatementResponse page = statement("SELECT * FROM \"" + table + "\" WHERE pk = 'a'", null, 2, token);
            items.addAll(page.items());
            pages.add(page.items().size());
            token = page.nextToken();
        } while (token != null);
        // THEN the pages are the Query's with Limit 2 and all five items in order
        assertThat(pages).containsExactly(2, 2, 1);
        assertThat(items)
                .isEqualTo(client.query(b -> b.tableName(table)
                                .keyConditionExpression("pk = :pk")
                                .expressionAttributeValues(Map.of(":pk", s("a"))))
                        .items());
    }

    @Test
    void select_shouldScan_whenThereIsNoPartitionKeyEquality() {
        // GIVEN five items in partition a and one in b
        String table = fiveItems();
        client.putItem(b -> b.tableName(table).item(item("b", "9", null, 0)));
        // WHEN selected by a non-key attribute, and by a range of partition keys
        ExecuteStatementResponse filtered =
                statement("SELECT * FROM \"" + table + "\" WHERE n >= ?", null, null, null, n(3));
        ExecuteStatementResponse byRange =
                statement("SELECT * FROM \"" + table + "\" WHERE pk > 'a'", null, null, null);
        // THEN each is the Scan with that filter: its items and its units
        var scan = client.scan(b -> b.tableName(table)
                .filterExpression("n >= :v")
                .expressionAttributeValues(Map.of(":v", n(3)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        assertThat(filtered.items()).isEqualTo(scan.items()).hasSize(3);
        assertThat(filtered.consumedCapacity()).isEqualTo(scan.consumedCapacity());
        assertThat(byRange.items()).containsExactly(item("b", "9", null, 0));
    }

    @Test
    void select_shouldQueryTheIndex_whenItIsNamed() throws InterruptedException {
        // GIVEN two items in index partition grp (the index is read as DynamoDB's, a moment behind the table)
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", "grp", 0)));
        client.putItem(b -> b.tableName(table).item(item("b", "1", "grp", 0)));
        QueryRequest plain = QueryRequest.builder()
                .tableName(table)
                .indexName(INDEX)
                .keyConditionExpression("g = :g")
                .expressionAttributeValues(Map.of(":g", s("grp")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        Eventually.await(() -> client.query(plain).count() == 2, Eventually.FAILSAFE);
        // WHEN the index is selected by its partition key
        ExecuteStatementResponse selected =
                statement("SELECT * FROM \"" + table + "\".\"" + INDEX + "\" WHERE g = 'grp'", null, null, null);
        // THEN the index Query's items and units
        QueryResponse query = client.query(plain);
        assertThat(selected.items()).isEqualTo(query.items());
        assertThat(selected.consumedCapacity()).isEqualTo(query.consumedCapacity());
    }

    @Test
    void select_shouldCountOnThePartition_asTheGetItemDoes() {
        // GIVEN an item
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("hot", "1", null, 0)));
        // WHEN it is read once by a statement and once by GetItem
        statement("SELECT * FROM \"" + table + "\" WHERE pk = 'hot' AND sk = '1'", null, null, null);
        EngineHeat.Partition afterStatement =
                engine.heat().partition(table, null, "hot").orElseThrow();
        client.getItem(b -> b.tableName(table).key(key("hot", "1")));
        EngineHeat.Partition afterGet =
                engine.heat().partition(table, null, "hot").orElseThrow();
        // THEN the partition's heat counts each the same: one read request, half a unit
        assertThat(afterStatement.requestsRead()).isEqualTo(1);
        assertThat(afterStatement.consumedRead()).isEqualTo(0.5);
        assertThat(afterGet.requestsRead()).isEqualTo(2);
        assertThat(afterGet.consumedRead()).isEqualTo(1.0);
    }

    @Test
    void insert_shouldPutTheItem_andBillAsPutItem() {
        // GIVEN a table
        String table = table();
        // WHEN an item is inserted with parameters and literals (a map, a list, a set, a number, a boolean, null)
        ExecuteStatementResponse inserted = statement(
                "INSERT INTO \"" + table + "\" VALUE {'pk': ?, 'sk': '1', 'n': -1.5, 'ok': true, 'none': null,"
                        + " 'm': {'l': [1, 'two']}, 'tags': <<'x', 'y'>>, 'data': ?}",
                null,
                null,
                null,
                s("a"),
                s("x".repeat(2 * KIB)));
        // THEN the item is stored as the literals say, at the units of the same PutItem
        Map<String, AttributeValue> expected = new LinkedHashMap<>(key("a", "1"));
        expected.put("n", AttributeValue.fromN("-1.5"));
        expected.put("ok", AttributeValue.fromBool(true));
        expected.put("none", AttributeValue.fromNul(true));
        expected.put("m", AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(n(1), s("two"))))));
        expected.put("tags", AttributeValue.fromSs(List.of("x", "y")));
        expected.put("data", s("x".repeat(2 * KIB)));
        assertThat(stored(table, "a", "1")).isEqualTo(expected);
        assertThat(inserted.items()).isEmpty();
        Map<String, AttributeValue> twin = new LinkedHashMap<>(expected);
        twin.putAll(key("b", "1"));
        ConsumedCapacity put = client.putItem(
                        b -> b.tableName(table).item(twin).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        assertThat(inserted.consumedCapacity()).isEqualTo(put);
        assertThat(put.capacityUnits()).isEqualTo(3.0);
    }

    @Test
    void insert_shouldFailWithDuplicateItemException_whenTheKeyExists() {
        // GIVEN an item
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", null, 0)));
        // WHEN an item with its key is inserted
        DuplicateItemException e = catchThrowableOfType(
                DuplicateItemException.class,
                () -> statement(
                        "INSERT INTO \"" + table + "\" VALUE {'pk': 'a', 'sk': '1', 'n': 9}", null, null, null));
        // THEN DynamoDB's DuplicateItemException, and the item as it was
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("DuplicateItemException");
        assertThat(e.getMessage()).contains("Duplicate primary key exists in table");
        assertThat(stored(table, "a", "1")).isEqualTo(item("a", "1", null, 0));
    }

    @Test
    void update_shouldSetAndRemove_asUpdateItemDoes() {
        // GIVEN an item with n and g
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", "grp", 0)));
        // WHEN two attributes are set and one removed, the new item returned
        ExecuteStatementResponse updated = statement(
                "UPDATE \"" + table + "\" SET n = ?, note = 'seen' REMOVE g WHERE pk = 'a' AND sk = '1'"
                        + " RETURNING ALL NEW *",
                null,
                null,
                null,
                n(7));
        // THEN the item holds them, its new image is the statement's one item, and the units are UpdateItem's
        Map<String, AttributeValue> expected = new LinkedHashMap<>(key("a", "1"));
        expected.put("n", n(7));
        expected.put("note", s("seen"));
        assertThat(stored(table, "a", "1")).isEqualTo(expected);
        assertThat(updated.items()).containsExactly(expected);
        ConsumedCapacity plain = client.updateItem(b -> b.tableName(table)
                        .key(key("a", "1"))
                        .updateExpression("SET n = :n")
                        .expressionAttributeValues(Map.of(":n", n(8)))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity();
        // (the first update also removed the index entry: one index write more than the second)
        assertThat(updated.consumedCapacity().capacityUnits()).isEqualTo(plain.capacityUnits() + 1);
    }

    @Test
    void update_shouldFailWithConditionalCheckFailed_whenTheItemIsMissing() {
        // GIVEN a table without the item
        String table = table();
        // WHEN it is updated (DynamoDB's UPDATE is no upsert)
        ConditionalCheckFailedException e = catchThrowableOfType(
                ConditionalCheckFailedException.class,
                () -> statement("UPDATE \"" + table + "\" SET n = 1 WHERE pk = 'a' AND sk = '1'", null, null, null));
        // THEN the conditional check fails and nothing is created
        assertThat(e.getMessage()).contains("The conditional request failed");
        assertThat(client.getItem(b -> b.tableName(table).key(key("a", "1"))).hasItem())
                .isFalse();
    }

    @Test
    void delete_shouldDeleteTheItem_andIgnoreAMissingOne() {
        // GIVEN an item
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", null, 3 * KIB)));
        // WHEN it is deleted, and then deleted again
        ExecuteStatementResponse deleted =
                statement("DELETE FROM \"" + table + "\" WHERE pk = ? AND sk = ?", null, null, null, s("a"), s("1"));
        ExecuteStatementResponse again =
                statement("DELETE FROM \"" + table + "\" WHERE pk = 'a' AND sk = '1'", null, null, null);
        // THEN it is gone, billed as DeleteItem bills it (its size), and the second is no error (one unit)
        assertThat(client.getItem(b -> b.tableName(table).key(key("a", "1"))).hasItem())
                .isFalse();
        assertThat(deleted.consumedCapacity().capacityUnits()).isEqualTo(3.0);
        assertThat(again.items()).isEmpty();
        assertThat(again.consumedCapacity().capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void batchExecuteStatement_shouldRunEachWrite_andReportEachFailureApart() {
        // GIVEN an item a/1
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", null, 0)));
        // WHEN a batch inserts a/2, inserts a/1 again, and updates the missing a/9
        var answer = client.batchExecuteStatement(b -> b.statements(
                batched("INSERT INTO \"" + table + "\" VALUE {'pk': 'a', 'sk': '2'}"),
                batched("INSERT INTO \"" + table + "\" VALUE {'pk': 'a', 'sk': '1', 'n': 5}"),
                batched("UPDATE \"" + table + "\" SET n = 1 WHERE pk = 'a' AND sk = '9'")));
        // THEN the first is served, and each of the others fails alone with DynamoDB's batch error code
        assertThat(answer.responses()).hasSize(3);
        assertThat(answer.responses().get(0).error()).isNull();
        assertThat(answer.responses().get(1).error().code()).isEqualTo(BatchStatementErrorCodeEnum.DUPLICATE_ITEM);
        assertThat(answer.responses().get(2).error().code())
                .isEqualTo(BatchStatementErrorCodeEnum.CONDITIONAL_CHECK_FAILED);
        assertThat(stored(table, "a", "2")).isEqualTo(key("a", "2"));
        assertThat(stored(table, "a", "1")).isEqualTo(item("a", "1", null, 0));
        assertThat(client.getItem(b -> b.tableName(table).key(key("a", "9"))).hasItem())
                .isFalse();
    }

    @Test
    void batchExecuteStatement_shouldReadSingleItems_asGetItemsDo() {
        // GIVEN an item a/1
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", null, 0)));
        // WHEN a batch reads a/1, the missing a/2, and the whole partition a
        var answer = client.batchExecuteStatement(b -> b.statements(
                        batched("SELECT * FROM \"" + table + "\" WHERE pk = 'a' AND sk = '1'"),
                        batched("SELECT * FROM \"" + table + "\" WHERE pk = 'a' AND sk = '2'"),
                        batched("SELECT * FROM \"" + table + "\" WHERE pk = 'a'"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        // THEN the item, no item, and a ValidationError (a batch reads by full key only); the two GetItems' units
        assertThat(answer.responses().get(0).item()).isEqualTo(item("a", "1", null, 0));
        assertThat(answer.responses().get(1).hasItem()).isFalse();
        assertThat(answer.responses().get(1).error()).isNull();
        assertThat(answer.responses().get(2).error().code()).isEqualTo(BatchStatementErrorCodeEnum.VALIDATION_ERROR);
        assertThat(answer.consumedCapacity())
                .containsExactly(ConsumedCapacity.builder()
                        .tableName(table)
                        .capacityUnits(1.0)
                        .build());
        // AND a batch that mixes reads and writes is refused whole
        DynamoDbException mixed = catchThrowableOfType(
                DynamoDbException.class,
                () -> client.batchExecuteStatement(b -> b.statements(
                        batched("SELECT * FROM \"" + table + "\" WHERE pk = 'a' AND sk = '1'"),
                        batched("DELETE FROM \"" + table + "\" WHERE pk = 'a' AND sk = '1'"))));
        assertThat(mixed.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        assertThat(stored(table, "a", "1")).isEqualTo(item("a", "1", null, 0));
    }

    @Test
    void statements_shouldFailAsDynamoDbDoes_whenMalformedOrIncomplete() {
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", null, 0)));
        assertThat(validation("SELEC * FROM \"" + table + "\""))
                .startsWith("Statement wasn't well formed, can't be processed");
        assertThat(validation("DELETE FROM \"" + table + "\" WHERE pk = 'a'"))
                .startsWith("Where clause does not contain a mandatory equality on all key attributes");
        assertThat(validation("SELECT * FROM \"" + table + "\" WHERE pk = ?"))
                .startsWith("Number of parameters in request and statement don't match.");
        assertThat(validation("SELECT * FROM \"" + table + "\" ORDER BY sk DESC"))
                .startsWith("Must have WHERE clause in the statement when using ORDER BY clause.");
        assertThat(catchThrowableOfType(
                        ResourceNotFoundException.class,
                        () -> statement("SELECT * FROM \"no-such-table\" WHERE pk = 'a'", null, null, null)))
                .isNotNull();
        // AND the item is as it was
        assertThat(stored(table, "a", "1")).isEqualTo(item("a", "1", null, 0));
    }

    @Test
    void statements_shouldBeRefusedWithAValidationException_whenTheEngineDoesNotTranslateTheForm() {
        String table = table();
        client.putItem(b -> b.tableName(table).item(item("a", "1", null, 0)));
        for (String form : List.of(
                "SELECT * FROM \"" + table + "\" WHERE pk = 'a' OR pk = 'b'",
                "SELECT * FROM \"" + table + "\" WHERE pk IN ['a', 'b']",
                "UPDATE \"" + table + "\" SET n = n + 1 WHERE pk = 'a' AND sk = '1'")) {
            assertThat(validation(form))
                    .as(form)
                    .startsWith("The oneread local engine does not translate this PartiQL form");
        }
        assertThat(stored(table, "a", "1")).isEqualTo(item("a", "1", null, 0));
    }

    private static BatchStatementRequest batched(String statement) {
        return BatchStatementRequest.builder().statement(statement).build();
    }

    private static String validation(String statement) {
        DynamoDbException e =
                catchThrowableOfType(DynamoDbException.class, () -> statement(statement, null, null, null));
        assertThat(e.statusCode()).isEqualTo(400);
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        return e.awsErrorDetails().errorMessage();
    }

    private static void assertSameAsQuery(ExecuteStatementResponse statement, QueryResponse query) {
        assertThat(statement.items()).isEqualTo(query.items()).isNotEmpty();
        assertThat(statement.consumedCapacity()).isEqualTo(query.consumedCapacity());
    }

    /** A Query of partition a, #pk, #sk and #n named, TOTAL capacity. */
    private static QueryResponse query(
            String table, String keyCondition, String filter, Map<String, AttributeValue> values, boolean forward) {
        Map<String, AttributeValue> all = new LinkedHashMap<>(values);
        all.put(":pk", s("a"));
        Map<String, String> names = new LinkedHashMap<>(Map.of("#pk", "pk", "#sk", "sk"));
        if (filter != null) {
            names.put("#n", "n");
        }
        return client.query(b -> b.tableName(table)
                .keyConditionExpression(keyCondition)
                .filterExpression(filter)
                .expressionAttributeNames(names)
                .expressionAttributeValues(all)
                .scanIndexForward(forward)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    }

    private static ExecuteStatementResponse statement(
            String statement, Boolean consistent, Integer limit, String nextToken, AttributeValue... parameters) {
        return client.executeStatement(b -> b.statement(statement)
                .parameters(parameters.length == 0 ? null : List.of(parameters))
                .consistentRead(consistent)
                .limit(limit)
                .nextToken(nextToken)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
    }

    private static Map<String, AttributeValue> stored(String table, String pk, String sk) {
        return client.getItem(b -> b.tableName(table).key(key(pk, sk)).consistentRead(true))
                .item();
    }

    /** Five items in partition a: sk "1".."5", n 1..5. */
    private static String fiveItems() {
        String table = table();
        for (int i = 1; i <= 5; i++) {
            Map<String, AttributeValue> item = new LinkedHashMap<>(key("a", String.valueOf(i)));
            item.put("n", n(i));
            client.putItem(b -> b.tableName(table).item(item));
        }
        return table;
    }

    /** An item: its key, its index key g (none when null), and data padding it to {@code size} bytes (none: 0). */
    private static Map<String, AttributeValue> item(String pk, String sk, String group, int size) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(key(pk, sk));
        if (group != null) {
            item.put("g", s(group));
        }
        if (size > 0) {
            int used = "pk".length()
                    + pk.length()
                    + "sk".length()
                    + sk.length()
                    + "data".length()
                    + (group == null ? 0 : "g".length() + group.length());
            item.put("data", s("x".repeat(size - used)));
        }
        return item;
    }

    private static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of("pk", s(pk), "sk", s(sk));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(int value) {
        return AttributeValue.fromN(String.valueOf(value));
    }

    private static String table() {
        return GroupedTables.create(client, "partiql-" + tables.incrementAndGet(), null, null);
    }
}
