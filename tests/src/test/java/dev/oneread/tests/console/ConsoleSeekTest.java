package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.BulkLoad;
import dev.oneread.tests.support.CollectionOrder;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.IndexTruth;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Seek in a collection of any size, over HTTP (issue 40, "No seek"): the collection endpoint's {@code find} (a
 * project id, or the start of one), {@code at} (a position) and {@code end=newest} answer the page there with its
 * position in the whole collection, by reading one span of the partitions' marks (about 1,000 keys) per
 * partition, never the items before it; a hot tenant's shards merged; an index key over all its shards; the index
 * list under a workspace filter. Each answer's cost (Queries, items read, capacity) is asserted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleSeekTest {
    /** More than two spans of marks (SortMarks.STEP is 1,000): a position is past what one span holds. */
    private static final int PROJECTS = 2_600;

    private static final int HOT_PROJECTS = 1_500;
    private static final int HOT_SHARDS = 10;
    /** Keys read for a position, per partition, at most: one span for the key, one for META, and the page. */
    private static final int SPAN = 1_000;

    private final TestEngine engine = TestEngine.get();
    private final String table = "console-seek-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("seek");
    private final String hot = Api.freshWorkspaceId("seekhot");
    /** A workspace the writes test changes, of a little more than one span. */
    private final String moved = Api.freshWorkspaceId("seekmoved");

    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of("HotTenantShards", hot + "=" + HOT_SHARDS));
        for (String tenant : List.of(ws, hot, moved)) {
            assertThat(api.send("POST", "/workspaces", "{\"id\":\"" + tenant + "\",\"name\":\"Seek\"}", List.of(), true)
                            .statusCode())
                    .isEqualTo(201);
        }
        BulkLoad.putProjects(engine.client, table, ShardPlan.none(), WorkspaceId.of(ws), PROJECTS);
        BulkLoad.putProjects(engine.client, table, ShardPlan.none(), WorkspaceId.of(moved), 1_200);
        BulkLoad.putProjects(
                engine.client, table, ShardPlan.parse(hot + "=" + HOT_SHARDS, null), WorkspaceId.of(hot), HOT_PROJECTS);
        // Three with an idempotency key: their records are the bookkeeping, after the readable items
        for (int i = 0; i < 3; i++) {
            assertThat(api.send(
                                    "POST",
                                    "/workspaces/" + ws + "/projects",
                                    "{\"name\":\"kept " + i + "\"}",
                                    List.of(ws),
                                    false,
                                    "Idempotency-Key",
                                    UUID.randomUUID().toString())
                            .statusCode())
                    .isEqualTo(201);
        }
        // The items were written behind the console's back: counted again, which lays the marks
        assertThat(api.send("POST", "/_console/api/rescan", null, List.of(), false)
                        .statusCode())
                .isEqualTo(200);
        long items = truth(List.of(partition(ws))).size();
        Eventually.await(() -> countedAll(ws, items), Eventually.FAILSAFE);
    }

    /** Whether the background count has ended with the {@code tenant}'s {@code items} counted. */
    private boolean countedAll(String tenant, long items) {
        try {
            return get("partitions?filter=").get("counting") == null
                    && ((Number) collection("tenant=" + tenant + "&limit=1").get("total")).longValue() == items;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterAll
    void stop() {
        api.close();
    }

    @Test
    void findById_shouldAnswerThePageFromTheItem_atItsPosition_readingOneSpanNotTheItemsBefore() throws Exception {
        // GIVEN a 2,604-item collection (META, 2,600 projects, 3 idempotency records) and the project at 2,300
        List<String> truth = truth(List.of(partition(ws)));
        int at = 2_300;
        String id = truth.get(at).substring("PROJ#".length());
        // WHEN the console seeks its id
        Map<String, Object> page = collection("tenant=" + ws + "&find=" + id + "&limit=50");
        // THEN the page starts at it, at its position in the whole collection
        assertThat(sorts(page)).containsExactlyElementsOf(truth.subList(at, at + 50));
        assertThat(page).containsEntry("found", true).containsEntry("position", at);
        assertThat(((Number) page.get("total")).intValue()).isEqualTo(truth.size());
        // AND it cost a page and two spans of keys (META's and the item's), not the 2,300 items before it
        assertCost(page, 3, SPAN + 50 + 3);
    }

    @Test
    void writesSinceTheCount_shouldMoveTheMarks_soPositionsStayExact() throws Exception {
        // GIVEN a workspace of its own (the other tests' positions stay put): projects deleted from its first span,
        // and created (they sort last among its projects), since the count laid its marks
        List<String> before = truth(List.of(partition(moved)));
        for (String sort : List.of(before.get(10), before.get(500), before.get(900))) {
            assertThat(api.send(
                                    "DELETE",
                                    "/workspaces/" + moved + "/projects/" + sort.substring("PROJ#".length()),
                                    null,
                                    List.of(moved),
                                    false)
                            .statusCode())
                    .isEqualTo(204);
        }
        for (int i = 0; i < 4; i++) {
            assertThat(api.send(
                                    "POST",
                                    "/workspaces/" + moved + "/projects",
                                    "{\"name\":\"late " + i + "\"}",
                                    List.of(moved),
                                    false)
                            .statusCode())
                    .isEqualTo(201);
        }
        // WHEN the console has seen the writes (its count is the table's)
        List<String> truth = truth(List.of(partition(moved)));
        Eventually.await(() -> countedAll(moved, truth.size()), Eventually.FAILSAFE);
        // THEN a seek past the first span, a position, and the newest project are where the table has them now
        String id = truth.get(1_100).substring("PROJ#".length());
        assertThat(collection("tenant=" + moved + "&find=" + id + "&limit=5")).containsEntry("position", 1_100);
        assertThat(sorts(collection("tenant=" + moved + "&at=1150&limit=5")))
                .containsExactlyElementsOf(truth.subList(1_150, 1_155));
        String newest = truth.stream()
                .filter(s -> s.startsWith("PROJ#"))
                .reduce((x, y) -> y)
                .orElseThrow();
        assertThat(collection("tenant=" + moved + "&find=" + newest.substring("PROJ#".length()) + "&limit=1"))
                .containsEntry("position", truth.indexOf(newest));
    }

    @Test
    void findByPrefix_anyCase_shouldLandOnTheFirstItemWithIt() throws Exception {
        List<String> truth = truth(List.of(partition(ws)));
        String id = truth.get(1_234).substring("PROJ#".length());
        String prefix = id.substring(0, 21).toLowerCase(Locale.ROOT);
        int first = indexOfFirst(truth, "PROJ#" + prefix.toUpperCase(Locale.ROOT));
        Map<String, Object> page = collection("tenant=" + ws + "&find=" + prefix + "&limit=5");
        assertThat(sorts(page).get(0)).isEqualTo(truth.get(first)).startsWith("PROJ#" + id.substring(0, 21));
        assertThat(page).containsEntry("found", true).containsEntry("position", first);
        // AND a prefix no item has lands where it would sort, not found
        Map<String, Object> none = collection("tenant=" + ws + "&find=7ZZZZZ&limit=5");
        assertThat(none).containsEntry("found", false);
        assertThat(sorts(none)).allMatch(s -> s.startsWith("IDEM#"));
    }

    @Test
    void at_shouldAnswerThePageHoldingThePosition_fromTheMarks() throws Exception {
        List<String> truth = truth(List.of(partition(ws)));
        for (int at : new int[] {0, 999, 1_000, 2_222, truth.size() - 2}) {
            Map<String, Object> page = collection("tenant=" + ws + "&at=" + at + "&limit=20");
            assertThat(sorts(page))
                    .as("the page at %d", at)
                    .containsExactlyElementsOf(truth.subList(at, Math.min(truth.size(), at + 20)));
            assertThat(((Number) page.get("position")).intValue()).isEqualTo(at);
            // the span skipped to the position is read, the items before the span are not
            assertCost(page, 4, 2 * SPAN + 20 + 3);
        }
    }

    @Test
    void ends_shouldBeTheFirstPage_andTheNewestProjectsReadBackwards() throws Exception {
        List<String> truth = truth(List.of(partition(ws)));
        List<String> readable =
                truth.stream().filter(s -> !s.startsWith("IDEM#")).toList();
        Map<String, Object> newest = collection("tenant=" + ws + "&end=newest&limit=30");
        assertThat(sorts(newest)).containsExactlyElementsOf(readable.subList(readable.size() - 30, readable.size()));
        assertThat(((Number) newest.get("position")).intValue()).isEqualTo(readable.size() - 30);
        assertCost(newest, 3, SPAN + 30 + 3);
        Map<String, Object> oldest = collection("tenant=" + ws + "&end=oldest&limit=30");
        assertThat(sorts(oldest)).containsExactlyElementsOf(truth.subList(0, 30));
        assertThat(sorts(oldest).get(0)).isEqualTo("META");
        assertThat(oldest).containsEntry("position", 0);
    }

    @Test
    void hotTenant_shouldSeekOverEveryShard_merged() throws Exception {
        // GIVEN a hot tenant's 1,501 items over its unsharded partition and 10 shards
        List<String> truth = truth(CollectionOrder.partitions(hot, HOT_SHARDS));
        assertThat(truth).hasSize(1 + HOT_PROJECTS);
        // WHEN one id is sought, and a position asked for
        String id = truth.get(1_111).substring("PROJ#".length());
        Map<String, Object> found = collection("tenant=" + hot + "&find=" + id + "&limit=10");
        Map<String, Object> at = collection("tenant=" + hot + "&at=777&limit=10");
        // THEN each page is the merged order's, at its position
        assertThat(sorts(found)).containsExactlyElementsOf(truth.subList(1_111, 1_121));
        assertThat(found).containsEntry("position", 1_111).containsEntry("found", true);
        assertThat(sorts(at)).containsExactlyElementsOf(truth.subList(777, 787));
        assertThat(at).containsEntry("position", 777);
        // AND each cost one page and the spans of each of the 11 partitions: no more
        assertCost(found, 11 * 3, 11 * (SPAN + 10) + 10);
        assertCost(at, 11 * 4, 11 * (2 * SPAN + 10) + 10);
    }

    @Test
    @SuppressWarnings("unchecked")
    void indexKey_shouldReadEveryShard_mergedByIndexSortKey_withTheShardPerRow() throws Exception {
        // GIVEN the ACTIVE projects of both workspaces, over the index's 8 shards
        List<String> truth = indexTruth("ACTIVE");
        assertThat(truth).hasSizeGreaterThan(500);
        // WHEN the index key is paged through, 200 rows a page
        List<Map<String, Object>> rows = new ArrayList<>();
        String after = null;
        int pages = 0;
        do {
            Map<String, Object> page = collection("index=STATUS%23ACTIVE&limit=200"
                    + (after == null ? "" : "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8)));
            assertThat(((Number) page.get("total")).intValue()).isEqualTo(truth.size());
            assertCost(page, 8 * 2, 8 * 200);
            rows.addAll((List<Map<String, Object>>) page.get("rows"));
            after = (String) page.get("next");
            pages++;
        } while (after != null && pages < 100);
        // THEN every entry once, in index sort key order, each with its shard
        assertThat(rows.stream().map(r -> (String) r.get("indexSort")).toList()).containsExactlyElementsOf(truth);
        assertThat(rows)
                .allSatisfy(r -> assertThat((String) r.get("indexPartition"))
                        .isEqualTo(KeyCodec.statusIndexPartition("ACTIVE", ((Number) r.get("indexShard")).intValue())));
        assertThat(rows.stream().map(r -> r.get("indexShard")).distinct().count())
                .isEqualTo(8);
        // AND a seek in it lands on the id, at its position
        String id = truth.get(300).substring("PROJ#".length());
        Map<String, Object> found = collection("index=STATUS%23ACTIVE&find=" + id + "&limit=3");
        assertThat(found).containsEntry("found", true).containsEntry("position", 300);
    }

    @Test
    @SuppressWarnings("unchecked")
    void indexList_underAWorkspaceFilter_shouldShowThatWorkspacesStatuses() throws Exception {
        Map<String, Object> filtered = get("partitions?filter=" + ws);
        List<Map<String, Object>> groups = (List<Map<String, Object>>) filtered.get("index");
        // every status its projects have (BulkLoad gives them every status in turn), counted for it alone
        assertThat(groups).isNotEmpty();
        long statusEntries = groups.stream()
                .filter(g -> ((String) g.get("key")).startsWith("STATUS#"))
                .mapToLong(g -> ((Number) g.get("items")).longValue())
                .sum();
        assertThat(statusEntries).isEqualTo(PROJECTS + 3);
        assertThat(groups.stream().map(g -> (String) g.get("key")))
                .contains("STATUS#ACTIVE")
                .allMatch(k -> k.startsWith("STATUS#") || k.equals("WSREG"));
    }

    @Test
    void badInput_shouldBeA400ProblemNamingTheFault() throws Exception {
        for (String query : List.of(
                "tenant=" + ws + "&find=" + URLEncoder.encode("no such thing!", StandardCharsets.UTF_8),
                "tenant=" + ws + "&at=-1",
                "tenant=" + ws + "&at=many",
                "tenant=" + ws + "&end=sideways",
                "tenant=" + ws + "&find=01&at=3",
                "index=NOPE",
                "index=STATUS%23active",
                "index=STATUS%23ACTIVE&tenant=" + ws)) {
            HttpResponse<String> response =
                    api.send("GET", "/_console/api/collection?" + query, null, List.of(), false);
            assertThat(response.statusCode()).as(query).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            assertThat(Json.readObject(response.body()).get("detail"))
                    .asString()
                    .doesNotContain("Exception");
        }
    }

    /** The page's cost, as it reports it: at most {@code calls} Queries reading at most {@code items} items. */
    @SuppressWarnings("unchecked")
    private static void assertCost(Map<String, Object> page, int calls, int items) {
        Map<String, Object> read = (Map<String, Object>) page.get("read");
        assertThat(((Number) read.get("calls")).intValue()).as("Queries").isBetween(1, calls);
        assertThat(((Number) read.get("items")).intValue()).as("items read").isBetween(1, items);
        // a consistent read of an item up to 4 KB is one unit: never more units than items read
        assertThat(new BigDecimal(String.valueOf(read.get("capacity"))))
                .as("read capacity")
                .isPositive()
                .isLessThanOrEqualTo(BigDecimal.valueOf(((Number) read.get("items")).longValue()));
    }

    private static int indexOfFirst(List<String> sorted, String prefix) {
        for (int i = 0; i < sorted.size(); i++) {
            if (sorted.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no key starts with " + prefix);
    }

    private static String partition(String tenant) {
        return KeyCodec.workspacePartition(WorkspaceId.of(tenant));
    }

    @SuppressWarnings("unchecked")
    private static List<String> sorts(Map<String, Object> page) {
        return ((List<Map<String, Object>>) page.get("rows"))
                .stream().map(r -> (String) r.get("sort")).toList();
    }

    /** The collection's sort keys in the console's order, from Queries of the test's own table. */
    private List<String> truth(List<String> partitions) {
        return CollectionOrder.sortKeys(engine.client, table, partitions);
    }

    /** The index sort keys of one status over all its shards, merged, from Queries of the index. */
    private List<String> indexTruth(String status) throws InterruptedException {
        // The index trails the table, as DynamoDB's does (the engine's index lag): its truth is the settled index
        IndexTruth.awaitSettled(engine.client, table);
        List<String> out = new ArrayList<>();
        for (int shard = 1; shard <= 8; shard++) {
            for (Map<String, AttributeValue> item : queryAll(QueryRequest.builder()
                    .tableName(table)
                    .indexName(KeyCodec.INDEX_NAME)
                    .keyConditionExpression("#p = :p")
                    .expressionAttributeNames(Map.of("#p", KeyCodec.INDEX_PARTITION_KEY))
                    .expressionAttributeValues(
                            Map.of(":p", AttributeValue.fromS(KeyCodec.statusIndexPartition(status, shard)))))) {
                out.add(item.get(KeyCodec.INDEX_SORT_KEY).s());
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private List<Map<String, AttributeValue>> queryAll(QueryRequest.Builder request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse response =
                    engine.client.query(request.exclusiveStartKey(start).build());
            items.addAll(response.items());
            start = response.hasLastEvaluatedKey()
                            && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey()
                    : null;
        } while (start != null);
        return items;
    }

    private Map<String, Object> collection(String query) throws Exception {
        return get("collection?" + query);
    }

    private Map<String, Object> get(String path) throws Exception {
        HttpResponse<String> response = api.send("GET", "/_console/api/" + path, null, List.of(), false);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.readObject(response.body());
    }
}
