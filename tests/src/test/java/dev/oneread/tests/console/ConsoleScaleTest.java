package dev.oneread.tests.console;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.store.items.ItemSize;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The console on a large tenant, at test size: collection pages follow a cursor (every item exactly once, a hot
 * tenant's shards merged in sort-key order, a changed cursor refused), the partition list's counts follow the
 * writes without the console holding items, and no endpoint but the background count scans the table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleScaleTest {
    private static final int PROJECTS = 23;
    private static final int HOT_PROJECTS = 40;

    private final TestEngine engine = TestEngine.get();
    private final String table = "console-scale-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("scale");
    private final String hot = Api.freshWorkspaceId("scalehot");
    private LocalApi api;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of("HotTenantShards", hot + "=10"));
        for (String tenant : List.of(ws, hot)) {
            assertThat(api.send(
                                    "POST",
                                    "/workspaces",
                                    "{\"id\":\"" + tenant + "\",\"name\":\"Scale\"}",
                                    List.of(),
                                    true)
                            .statusCode())
                    .isEqualTo(201);
        }
        for (int i = 0; i < PROJECTS; i++) {
            // Some with an idempotency key: their records are the collection's bookkeeping, shown last
            String[] headers = i % 5 == 0
                    ? new String[] {"Idempotency-Key", UUID.randomUUID().toString()}
                    : new String[0];
            assertThat(api.send("POST", projects(ws), "{\"name\":\"p" + i + "\"}", List.of(ws), false, headers)
                            .statusCode())
                    .isEqualTo(201);
        }
        for (int i = 0; i < HOT_PROJECTS; i++) {
            assertThat(api.send("POST", projects(hot), "{\"name\":\"h" + i + "\"}", List.of(hot), false)
                            .statusCode())
                    .isEqualTo(201);
        }
    }

    @AfterAll
    void stop() {
        api.close();
    }

    @Test
    void collection_shouldGiveEveryItemOnce_metaAndProjectsFirst_whenPagedByCursor() throws Exception {
        // GIVEN a workspace of 23 projects, some created with an idempotency key
        List<Map<String, AttributeValue>> truth = itemsOf(ws);
        // WHEN its collection is paged 4 rows at a time, each page from the previous page's next
        List<Map<String, Object>> rows = pageThrough("tenant=" + ws, 4);
        // THEN every item shows exactly once
        assertThat(rows)
                .extracting(r -> r.get("partition") + " " + r.get("sort"))
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(truth.stream()
                        .map(i -> i.get(KeyCodec.PARTITION_KEY).s() + " "
                                + i.get(KeyCodec.SORT_KEY).s())
                        .toList());
        // AND in the order the page has always shown: META, the projects by sort key, then the bookkeeping
        List<String> kinds = rows.stream().map(r -> (String) r.get("kind")).toList();
        assertThat(kinds.get(0)).isEqualTo("workspace");
        assertThat(kinds.subList(kinds.indexOf("idempotency"), kinds.size())).containsOnly("idempotency");
        List<String> projects = rows.stream()
                .filter(r -> "project".equals(r.get("kind")))
                .map(r -> (String) r.get("sort"))
                .toList();
        assertThat(projects).hasSize(PROJECTS).isSorted();
    }

    @Test
    void collection_shouldMergeAHotTenantsShardsInSortKeyOrder_acrossPages() throws Exception {
        // GIVEN a tenant of 10 shards and 40 projects spread over them
        List<Map<String, AttributeValue>> truth = itemsOf(hot);
        // WHEN its collection is paged 6 rows at a time
        List<Map<String, Object>> rows = pageThrough("tenant=" + hot, 6);
        // THEN the projects of all shards come once each, merged in sort-key order across the pages
        List<Map<String, Object>> projects =
                rows.stream().filter(r -> "project".equals(r.get("kind"))).toList();
        assertThat(projects).hasSize(HOT_PROJECTS);
        assertThat(projects).extracting(r -> (String) r.get("sort")).isSorted().doesNotHaveDuplicates();
        assertThat(projects.stream().map(r -> r.get("shard")).distinct().count())
                .isGreaterThan(1);
        assertThat(rows).hasSize(truth.size());
    }

    @Test
    void collection_shouldRefuseAChangedCursor_andOneFromAnotherCollection() throws Exception {
        // GIVEN the cursor of a first page
        String next = (String) collection("tenant=" + ws + "&limit=3").get("next");
        assertThat(next).isNotNull();
        // (the signature's first character: its last one carries two bits the decoder ignores)
        int at = next.indexOf('.') + 1;
        String changed = next.substring(0, at) + (next.charAt(at) == 'A' ? 'B' : 'A') + next.substring(at + 1);
        String body = new String(java.util.Base64.getUrlDecoder().decode(next.substring(0, next.indexOf('.'))));
        String moved = java.util.Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(
                                body.replace("\"segment\":0", "\"segment\":1").getBytes(StandardCharsets.UTF_8))
                + next.substring(next.indexOf('.'));
        for (String[] attempt : List.of(
                new String[] {"tenant=" + ws, changed},
                new String[] {"tenant=" + ws, moved},
                new String[] {"tenant=" + hot, next},
                new String[] {"tenant=" + ws, "not-a-cursor"})) {
            // WHEN it comes back changed, rewritten, for another tenant, or made up
            HttpResponse<String> response = api.send(
                    "GET",
                    "/_console/api/collection?" + attempt[0] + "&after="
                            + URLEncoder.encode(attempt[1], StandardCharsets.UTF_8),
                    null,
                    List.of(),
                    false);
            // THEN it is refused with a problem that says what to do
            assertThat(response.statusCode()).as(attempt[1]).isEqualTo(400);
            assertThat(response.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
            assertThat((String) Json.readObject(response.body()).get("detail")).contains("first page");
        }
        // AND offset paging is refused in words, not ignored
        HttpResponse<String> offset =
                api.send("GET", "/_console/api/collection?tenant=" + ws + "&offset=10", null, List.of(), false);
        assertThat(offset.statusCode()).isEqualTo(400);
        assertThat(offset.body()).contains("after=");
    }

    @Test
    void partitionCounts_shouldFollowCreatesRenamesAndDeletes() throws Exception {
        // GIVEN the table counted
        awaitCounted();
        assertCountsMatchTheTable(ws);
        // WHEN a project is created, renamed to a longer name, and another deleted
        HttpResponse<String> created = api.send("POST", projects(ws), "{\"name\":\"counted\"}", List.of(ws), false);
        String id = (String) Json.readObject(created.body()).get("id");
        api.send(
                "PATCH",
                projects(ws) + "/" + id,
                "{\"name\":\"" + "longer".repeat(20) + "\"}",
                List.of(ws),
                false,
                "If-Match",
                "\"1\"");
        String other = itemsOf(ws).stream()
                .map(i -> i.get(KeyCodec.SORT_KEY).s())
                .filter(s -> s.startsWith("PROJ#") && !s.endsWith(id))
                .findFirst()
                .orElseThrow();
        api.send("DELETE", projects(ws) + "/" + other.substring("PROJ#".length()), null, List.of(ws), false);
        // THEN the partition list's items and bytes are the table's, and the index's entries too
        Eventually.await(() -> countsMatch(ws), Eventually.FAILSAFE);
        assertCountsMatchTheTable(ws);
    }

    @Test
    void partitionsAndCollection_shouldNotScan_onlyTheBackgroundCountTheScanToolAndTheExportDo() {
        JavaClasses console = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.oneread.local.console");
        assertThat(console).isNotEmpty();
        // The count of the table, on its own thread, and the Scan a person asks for in the table tools (TableReads,
        // one page a click, as the AWS console's item explorer) are the Scans...
        noClasses()
                .that()
                .doNotHaveSimpleName("TableMirror")
                .and()
                .doNotHaveSimpleName("TableReads")
                .should()
                .callMethodWhere(DescribedPredicate.describe(
                        "a Scan of the table",
                        (JavaMethodCall call) -> call.getTargetOwner().isAssignableTo(DynamoDbClient.class)
                                && call.getName().startsWith("scan")))
                .because("the partition list and the collection read counts and Queries, never the whole table")
                .check(console);
        // ...and the fixture export the only other reader of every item
        noClasses()
                .that()
                .doNotHaveSimpleName("Fixtures")
                .and()
                .doNotHaveSimpleName("TableMirror")
                .should()
                .callMethod("dev.oneread.local.console.TableMirror", "scan", "java.util.function.Consumer")
                .check(console);
    }

    private static String projects(String workspace) {
        return "/workspaces/" + workspace + "/projects";
    }

    private Map<String, Object> collection(String query) throws Exception {
        HttpResponse<String> response = api.send("GET", "/_console/api/collection?" + query, null, List.of(), false);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return Json.readObject(response.body());
    }

    /** Every row of a collection, page by page from each page's next, until next is null. */
    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> pageThrough(String view, int limit) throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        String after = null;
        for (int page = 0; page < 100; page++) {
            Map<String, Object> body = collection(view + "&limit=" + limit
                    + (after == null ? "" : "&after=" + URLEncoder.encode(after, StandardCharsets.UTF_8)));
            List<Map<String, Object>> pageRows = (List<Map<String, Object>>) body.get("rows");
            assertThat(pageRows.size()).isLessThanOrEqualTo(limit);
            rows.addAll(pageRows);
            after = (String) body.get("next");
            if (after == null) {
                return rows;
            }
        }
        throw new AssertionError("more than 100 pages");
    }

    /** The tenant's items, from a consistent Scan of the test's own table: the truth the console is held to. */
    private List<Map<String, AttributeValue>> itemsOf(String tenant) {
        return scanAll(engine.client).stream()
                .filter(i -> {
                    String partition = i.get(KeyCodec.PARTITION_KEY).s();
                    return partition.equals(KeyCodec.workspacePartition(dev.oneread.keys.WorkspaceId.of(tenant)))
                            || partition.startsWith(
                                    KeyCodec.workspacePartition(dev.oneread.keys.WorkspaceId.of(tenant)) + "#");
                })
                .toList();
    }

    private List<Map<String, AttributeValue>> scanAll(DynamoDbClient client) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page =
                    client.scan(b -> b.tableName(table).consistentRead(true).exclusiveStartKey(from));
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    private void awaitCounted() throws Exception {
        Eventually.await(() -> partitions().get("counting") == null, Eventually.FAILSAFE);
        assertThat(partitions().get("counting")).isNull();
    }

    private Map<String, Object> partitions() {
        try {
            HttpResponse<String> response = api.send("GET", "/_console/api/partitions", null, List.of(), false);
            return Json.readObject(response.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean countsMatch(String tenant) {
        try {
            assertCountsMatchTheTable(tenant);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    /** The tenant's items and bytes, and every index partition's entries, as the table holds them now. */
    @SuppressWarnings("unchecked")
    private void assertCountsMatchTheTable(String tenant) {
        Map<String, Object> list = partitions();
        Map<String, Object> shown = ((List<Map<String, Object>>) list.get("tenants"))
                .stream()
                        .filter(t -> tenant.equals(t.get("tenant")))
                        .findFirst()
                        .orElseThrow();
        List<Map<String, AttributeValue>> items = itemsOf(tenant);
        assertThat(((Number) shown.get("items")).longValue()).isEqualTo(items.size());
        assertThat(((Number) shown.get("bytes")).longValue())
                .isEqualTo(items.stream().mapToLong(ItemSize::bytes).sum());
        Map<String, Long> entries = new java.util.TreeMap<>();
        scanAll(engine.client).stream()
                .map(i -> i.get(KeyCodec.INDEX_PARTITION_KEY))
                .filter(pk -> pk != null)
                .forEach(pk -> entries.merge(pk.s(), 1L, Long::sum));
        Map<String, Long> shownEntries = new java.util.TreeMap<>();
        ((List<Map<String, Object>>) list.get("index"))
                .forEach(group -> ((List<Map<String, Object>>) group.get("partitions"))
                        .forEach(p ->
                                shownEntries.put((String) p.get("partition"), ((Number) p.get("items")).longValue())));
        assertThat(shownEntries).isEqualTo(entries);
    }
}
