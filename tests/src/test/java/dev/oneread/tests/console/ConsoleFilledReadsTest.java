package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.store.items.DynamoJson;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The console's Scan and Query fill a page: over HTTP against the real engine, a read calls until its limit of
 * matches is full, its budget of items read is spent, or the partition or table ends, and says which, with the calls
 * made, the items read and the capacity consumed; Next resumes exactly where it stopped, on the table and the index.
 * And the PartiQL form's SELECT, paged with its NextToken.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleFilledReadsTest {
    private static final String READ = "/_console/api/read";
    /** Items in the partition: matches every tenth, and a run of them from 100 to 129 (a call brings too many). */
    private static final int ITEMS = 300;

    private final TestEngine engine = TestEngine.get();
    private final String table = "filled-" + UUID.randomUUID().toString().substring(0, 8);
    private final String partition = "FILL#" + UUID.randomUUID().toString().substring(0, 8);
    private final String indexPartition = "FILLIDX#" + partition.substring(5);
    private LocalApi api;

    private static boolean hit(int i) {
        return i % 10 == 0 || (i >= 100 && i < 130);
    }

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        // GIVEN 300 small items in one partition (and in one partition of the index), 57 of them with status "hit" (an
        // attribute the index projects)
        SeededPartition.write(engine, table, partition, indexPartition, ITEMS, ConsoleFilledReadsTest::hit);
        // AND the index caught up with them (the engine updates an index after the write, as DynamoDB does)
        Eventually.await(() -> engineQuery(true).size() == 57, Eventually.FAILSAFE);
    }

    @AfterAll
    void stop() {
        api.close();
    }

    @Test
    void filteredQuery_shouldCallUntilThePageIsFull_andSayItsCalls_itemsRead_andCapacity() throws Exception {
        // GIVEN a Query of the partition filtered on status = hit, 7 to a page
        // WHEN read
        Map<String, Object> page = read(query("\"limit\":7"));
        // THEN the first 7 matches (items 0, 10, ..., 60), after the calls the rule makes: Limit 7, then the
        // matches still wanted doubled at each call (6x2 = 12, 5x4 = 20, 3x8 = 24): 4 calls, 63 items read
        assertThat(sorts(page)).containsExactly(sorts(0, 10, 20, 30, 40, 50, 60));
        assertThat(page).containsEntry("count", 7).containsEntry("stopped", "page full");
        assertThat(page).containsEntry("calls", 4).containsEntry("scannedCount", 63);
        // AND the capacity is the sum of the four calls' (each under 4 KB read: 0.5 units, eventually consistent)
        assertThat(page).containsEntry("consumed", "2");
        assertThat(page.get("cursor")).isNotNull();
        // AND no longer the old answer, a page of whatever one call happened to match
        assertThat(page).containsEntry("limit", 7).containsEntry("budget", 5_000);
    }

    @Test
    void nextPages_shouldResumeExactly_noMatchSkippedOrRepeated_whetherACallBroughtTooManyOrNot() throws Exception {
        // GIVEN the engine's own filtered Query of the whole partition
        List<String> all = engineQuery(false);
        assertThat(all).hasSize(57);
        // WHEN the console pages through it 4 at a time
        List<String> paged = new ArrayList<>();
        int trimmed = 0;
        int afterLastEvaluated = 0;
        String cursor = null;
        int pages = 0;
        do {
            Map<String, Object> page =
                    read(query("\"limit\":4" + (cursor == null ? "" : ",\"cursor\":\"" + cursor + "\"")));
            paged.addAll(sorts(page));
            cursor = (String) page.get("cursor");
            if (cursor != null) {
                // after the last item kept: a call brought more matches than the page wanted; otherwise after the
                // last item the last call read (its LastEvaluatedKey)
                if (page.get("resumesAfter").equals("the last item kept")) {
                    assertThat(cursorKey(cursor).get("Detail")).isEqualTo(last(sorts(page)));
                    trimmed++;
                } else {
                    assertThat(page).containsEntry("resumesAfter", "the last item read");
                    afterLastEvaluated++;
                }
            }
            pages++;
        } while (cursor != null && pages < 100);
        // THEN every match once, in order, and both kinds of cursor were used
        assertThat(paged).containsExactlyElementsOf(all);
        assertThat(trimmed).isPositive();
        assertThat(afterLastEvaluated).isPositive();
    }

    @Test
    void budget_shouldStopTheRead_atExactlyItsItems_andNextGoesOnToTheEnd() throws Exception {
        // GIVEN a filter nothing matches, and a budget of 100 items read
        String body = "\"mode\":\"query\",\"partition\":\"" + partition + "\",\"budget\":100,"
                + "\"filters\":[{\"attribute\":\"status\",\"operator\":\"=\",\"value\":\"none\"}]";
        // WHEN read
        Map<String, Object> page = read("{" + body + "}");
        // THEN it stopped on the budget, having read exactly 100 items (Limit 25, then min(100 - 25, 25 x 2) = 50,
        // then the 25 left), matched none, and can go on
        assertThat(page).containsEntry("stopped", "budget spent").containsEntry("count", 0);
        assertThat(page).containsEntry("scannedCount", 100).containsEntry("calls", 3);
        assertThat(cursorKey((String) page.get("cursor")).get("Detail")).isEqualTo("ITEM#0099");
        // WHEN Next is followed to the end
        int read = 100;
        String cursor = (String) page.get("cursor");
        while (cursor != null) {
            page = read("{" + body + ",\"cursor\":\"" + cursor + "\"}");
            read += ((Number) page.get("scannedCount")).intValue();
            cursor = (String) page.get("cursor");
        }
        // THEN every item was read once, and the last page says it ended
        assertThat(read).isEqualTo(ITEMS);
        assertThat(page).containsEntry("stopped", "end");
    }

    @Test
    void indexQuery_shouldResumeOnTheIndexAndTableKey_withEveryMatchOnce() throws Exception {
        // GIVEN the same items through GSI1, queried 5 to a page with a projection that leaves the keys out
        List<String> all = engineQuery(true);
        List<String> paged = new ArrayList<>();
        String cursor = null;
        Map<String, Object> page;
        do {
            page = read("{\"target\":\"GSI1\",\"mode\":\"query\",\"partition\":\"" + indexPartition + "\","
                    + "\"limit\":5,\"projection\":[\"name\"],"
                    + "\"filters\":[{\"attribute\":\"status\",\"operator\":\"=\",\"value\":\"hit\"}]"
                    + (cursor == null ? "" : ",\"cursor\":\"" + cursor + "\"") + "}");
            paged.addAll(sorts(page));
            cursor = (String) page.get("cursor");
            if (cursor != null) {
                // THEN each cursor carries the index's key and the table's
                assertThat(cursorKey(cursor)).containsOnlyKeys("GSI1PK", "GSI1SK", "EntityRef", "Detail");
            }
        } while (cursor != null);
        // AND the pages hold every match once, in the index's order; the projection gained the keys it needs
        assertThat(paged).containsExactlyElementsOf(all);
        assertThat(((Map<?, ?>) page.get("expressions")).get("projection")).isEqualTo("#n, #gp, #gs, #er, #d");
    }

    @Test
    void filteredScan_ofTheTableAndOfTheIndex_shouldPageThroughEveryMatchOnce() throws Exception {
        for (String target : List.of("table", "GSI1")) {
            // GIVEN the engine's own filtered Scan
            List<String> all = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            do {
                ScanResponse r = engine.client.scan(ScanRequest.builder()
                        .tableName(table)
                        .indexName(target.equals("GSI1") ? "GSI1" : null)
                        .filterExpression("#st = :h")
                        .expressionAttributeNames(Map.of("#st", "status"))
                        .expressionAttributeValues(Map.of(":h", AttributeValue.fromS("hit")))
                        .exclusiveStartKey(start)
                        .build());
                r.items().forEach(i -> all.add(i.get("Detail").s()));
                start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
            } while (start != null);
            // WHEN the console scans 6 to a page
            List<String> paged = new ArrayList<>();
            int calls = 0;
            String cursor = null;
            do {
                Map<String, Object> page = read("{\"target\":\"" + target + "\",\"mode\":\"scan\",\"limit\":6,"
                        + "\"filters\":[{\"attribute\":\"status\",\"operator\":\"=\",\"value\":\"hit\"}]"
                        + (cursor == null ? "" : ",\"cursor\":\"" + cursor + "\"") + "}");
                paged.addAll(sorts(page));
                calls += ((Number) page.get("calls")).intValue();
                cursor = (String) page.get("cursor");
            } while (cursor != null);
            // THEN every match once, in the engine's order, in fewer calls than one per page of the old console
            assertThat(paged).as(target).containsExactlyElementsOf(all);
            assertThat(all).as(target).hasSize(57);
            assertThat(calls).as(target).isLessThan(ITEMS / 6);
        }
    }

    @Test
    void partiqlSelect_shouldPageWithItsNextToken_everyItemOnce_andFilterAsDynamoDbDoes() throws Exception {
        // GIVEN a SELECT of the partition, 120 items a page
        String select = "SELECT * FROM \\\"" + table + "\\\" WHERE \\\"EntityRef\\\" = '" + partition + "'";
        // WHEN paged with its NextToken
        List<String> paged = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            Map<String, Object> page = statement("{\"statement\":\"" + select + "\",\"limit\":120"
                    + (token == null ? "" : ",\"nextToken\":\"" + token + "\"") + "}");
            paged.addAll(sorts(page));
            assertThat(new BigDecimal((String) page.get("consumed"))).isPositive();
            assertThat(page).containsKey("snippets");
            token = (String) page.get("nextToken");
            pages++;
        } while (token != null);
        // THEN every item once, in the partition's order, over three pages
        List<String> all = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            all.add(SeededPartition.sort(i));
        }
        assertThat(paged).containsExactlyElementsOf(all);
        assertThat(pages).isEqualTo(3);
        // AND a WHERE on another attribute filters as a Query's filter does: the 57 matches
        Map<String, Object> hits =
                statement("{\"statement\":\"" + select + " AND \\\"status\\\" = 'hit'\",\"limit\":1000}");
        assertThat(sorts(hits)).containsExactlyElementsOf(engineQuery(false));
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private String query(String extra) {
        return "{\"mode\":\"query\",\"partition\":\"" + partition + "\","
                + "\"filters\":[{\"attribute\":\"status\",\"operator\":\"=\",\"value\":\"hit\"}]," + extra + "}";
    }

    private Map<String, Object> read(String body) throws Exception {
        HttpResponse<String> response = ConsoleHttp.send(api, "POST", READ, "application/json", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.readObject(response.body());
    }

    private Map<String, Object> statement(String body) throws Exception {
        HttpResponse<String> response =
                ConsoleHttp.send(api, "POST", "/_console/api/statement", "application/json", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.readObject(response.body());
    }

    /** The engine's own filtered Query of the partition, every page: the sort keys of the matches. */
    private List<String> engineQuery(boolean index) {
        List<String> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse r = engine.client.query(QueryRequest.builder()
                    .tableName(table)
                    .indexName(index ? "GSI1" : null)
                    .keyConditionExpression((index ? "GSI1PK" : "EntityRef") + " = :p")
                    .filterExpression("#st = :h")
                    .expressionAttributeNames(Map.of("#st", "status"))
                    .expressionAttributeValues(Map.of(
                            ":p", AttributeValue.fromS(index ? indexPartition : partition),
                            ":h", AttributeValue.fromS("hit")))
                    .exclusiveStartKey(start)
                    .build());
            r.items().forEach(i -> out.add(i.get("Detail").s()));
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<String> sorts(Map<String, Object> page) {
        List<String> out = new ArrayList<>();
        for (Object item : (List<?>) page.get("items")) {
            out.add((String) ((Map<String, Object>) ((Map<String, Object>) item).get("Detail")).get("S"));
        }
        return out;
    }

    private static String[] sorts(int... items) {
        String[] out = new String[items.length];
        for (int i = 0; i < items.length; i++) {
            out[i] = String.format("ITEM#%04d", items[i]);
        }
        return out;
    }

    private static String last(List<String> list) {
        return list.isEmpty() ? null : list.get(list.size() - 1);
    }

    /** The key a console cursor resumes after, each attribute's string. */
    private static Map<String, String> cursorKey(String cursor) {
        Map<String, AttributeValue> key = DynamoJson.toItem(
                Json.readObject(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8)));
        Map<String, String> out = new LinkedHashMap<>();
        key.forEach((k, v) -> out.put(k, v.s()));
        return out;
    }
}
