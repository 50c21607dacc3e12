package dev.oneread.tests.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.listprojectsbystatus.ListProjectsByStatusFunction;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.NewProject;
import dev.oneread.model.ProjectStatus;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.EngineProxy;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.IndexTruth;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The cross-workspace index against the truth: 1,000 projects over 40 workspaces (one a hot tenant of 10 shards) in
 * a table of their own, listed by status through GET /projects while random status changes and deletes land
 * between pages, then compared with a brute-force Scan of the table (the test may scan; the product never does).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IndexListingTest {
    private static final int WORKSPACES = 40;
    private static final int PROJECTS = 1_000;
    private static final int INDEX_SHARDS = 8;
    /** Fixed, so the ids (and with them the index shards) are the same every run: the spread is a figure, not luck. */
    private static final long SEED = 20261203L;

    private final TestEngine engine = TestEngine.get();
    private final String table = "index-" + UUID.randomUUID().toString().substring(0, 8);
    private final String hot = "hot-tenant";
    private final ShardPlan plan = ShardPlan.parse(hot + "=10", "");
    private final Api api = new Api(plan, table);
    private final Random random = new Random(SEED);
    private final List<String> workspaces = new ArrayList<>();
    /** Project id to its workspace, for the PATCHes and DELETEs. */
    private final Map<String, String> owner = new LinkedHashMap<>();

    @BeforeAll
    void data() throws InterruptedException {
        for (int w = 0; w < WORKSPACES - 1; w++) {
            workspaces.add(String.format("ix-%02d", w)); // the table is this test's own, so the ids can be fixed
        }
        workspaces.add(hot);
        for (String ws : workspaces) {
            assertThat(api.createWorkspace(ws, "W " + ws).status()).isEqualTo(201);
        }
        // Projects through the store the functions use, with ids from a seeded generator (ULIDs: time, then random)
        ControlPlaneStore store = new ControlPlaneStore(engine.client, engine.pool, table, plan);
        long time = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < PROJECTS; i++) {
            String ws = workspaces.get(i % 5 == 0 ? WORKSPACES - 1 : random.nextInt(WORKSPACES - 1));
            ProjectId id = ProjectId.of(ulid(time + i * 1_000L));
            ProjectStatus status = ProjectStatus.values()[random.nextInt(3)];
            store.createProject(
                    WorkspaceId.of(ws),
                    id,
                    new NewProject("project " + i, null, status),
                    Instant.ofEpochMilli(time + i * 1_000L),
                    CreationToken.random(),
                    new CallTally());
            owner.put(id.value(), ws);
        }
        // The index trails the table, as DynamoDB's does: every test starts from the index caught up
        IndexTruth.awaitSettled(engine.client, table);
    }

    private String ulid(long millis) {
        String alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        StringBuilder out = new StringBuilder();
        for (int i = 9; i >= 0; i--) {
            out.append(alphabet.charAt((int) ((millis >>> (5 * i)) & 31)));
        }
        for (int i = 0; i < 16; i++) {
            out.append(alphabet.charAt(random.nextInt(32)));
        }
        return out.toString();
    }

    private static Map<String, Object> operator() {
        return Map.of("sub", "operator-1", "workspaces", "", "scope", "openid oneread/api oneread/admin");
    }

    private Lambda.Response byStatus(ProjectStatus status, int limit, String cursor) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("status", status.name());
        query.put("limit", Integer.toString(limit));
        if (cursor != null) {
            query.put("cursor", cursor);
        }
        return api.call(
                "ListProjectsByStatus",
                ApiEvent.of("GET", ApiEvent.ALL_PROJECTS).query(query).claims(operator()));
    }

    private Lambda.Response workspacesPage(int limit, String cursor) {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("limit", Integer.toString(limit));
        if (cursor != null) {
            query.put("cursor", cursor);
        }
        return api.call(
                "ListWorkspaces",
                ApiEvent.of("GET", ApiEvent.WORKSPACES).query(query).claims(operator()));
    }

    /** Every page of a status's listing: the ids in order. */
    private List<String> listAll(ProjectStatus status, int limit, Runnable betweenPages) {
        List<String> ids = new ArrayList<>();
        String cursor = null;
        do {
            Lambda.Response page = byStatus(status, limit, cursor);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            List<String> pageIds = page.ids("items");
            assertThat(pageIds.size()).isLessThanOrEqualTo(limit);
            cursor = page.nextCursor();
            if (cursor != null) {
                assertThat(pageIds)
                        .as("exact pages of limit, fewer only on the last")
                        .hasSize(limit);
            }
            ids.addAll(pageIds);
            betweenPages.run();
        } while (cursor != null);
        return ids;
    }

    /** The truth, by brute force: every project of the table with this status, newest first. */
    private List<String> bruteForce(ProjectStatus status) {
        return IndexTruth.projects(engine.client, table, status);
    }

    /** A random status change or delete of a random live project, through the API. */
    private void randomWrite() {
        List<String> ids = new ArrayList<>(owner.keySet());
        String id = ids.get(random.nextInt(ids.size()));
        String ws = owner.get(id);
        if (random.nextInt(4) == 0) {
            assertThat(api.deleteProject(ws, id, "*").status()).isEqualTo(204);
            owner.remove(id);
        } else {
            ProjectStatus status = ProjectStatus.values()[random.nextInt(3)];
            Lambda.Response patched = api.patchProject(ws, id, "*", "{\"status\":\"" + status + "\"}");
            assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        }
    }

    @Test
    void listingByStatus_withWritesBetweenPages_shouldEqualTheBruteForceOnceSettled() throws InterruptedException {
        for (ProjectStatus status : ProjectStatus.values()) {
            // WHEN the status is listed in pages of 37 while 3 random writes land between pages
            List<String> during = listAll(status, 37, () -> {
                for (int i = 0; i < 3; i++) {
                    randomWrite();
                }
            });
            // THEN no project appears twice, even while it moves
            assertThat(new HashSet<>(during)).hasSameSizeAs(during);
        }
        for (ProjectStatus status : ProjectStatus.values()) {
            // AND once the index has caught up with the writes (it trails the table, as DynamoDB's does: the wait is
            // on the listing's own answer), each listing equals the brute force: none missing, duplicated or stale
            List<String> truth = bruteForce(status);
            Eventually.await(() -> listAll(status, 50, () -> {}).equals(truth), Eventually.FAILSAFE);
            List<String> settled = listAll(status, 50, () -> {});
            assertThat(settled).as(status.name()).isEqualTo(truth);
            System.out.println("index listing " + status + ": " + settled.size() + " projects = brute force");
        }
    }

    @Test
    void indexShards_shouldEachHoldAtMostOneAndAHalfTimesTheirFairShare() {
        // GIVEN the index partition key of every item (the dump of the index's partitions)
        Map<String, Map<String, Integer>> perStatus = new TreeMap<>();
        Map<String, AttributeValue> start = null;
        do {
            var page = engine.client.scan(ScanRequest.builder()
                    .tableName(table)
                    .indexName(KeyCodec.INDEX_NAME)
                    .exclusiveStartKey(start)
                    .build());
            for (Map<String, AttributeValue> entry : page.items()) {
                String partition = entry.get(KeyCodec.INDEX_PARTITION_KEY).s();
                String key = partition.substring(0, partition.lastIndexOf('#'));
                perStatus.computeIfAbsent(key, k -> new TreeMap<>()).merge(partition, 1, Integer::sum);
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        // THEN every key is spread over all 8 shards, none above 1.5x its fair share
        assertThat(perStatus.keySet()).containsExactly("STATUS#ACTIVE", "STATUS#ARCHIVED", "STATUS#PAUSED", "WSREG");
        perStatus.forEach((key, shards) -> {
            int total = shards.values().stream().mapToInt(Integer::intValue).sum();
            double fair = total / (double) INDEX_SHARDS;
            int max = shards.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
            System.out.printf(
                    "index spread %-16s %4d entries, per shard %s, max %.2fx fair share%n",
                    key, total, shards.values(), max / fair);
            if (!key.equals("WSREG")) { // 40 workspaces over 8 shards is too few for a ratio to mean much
                assertThat(shards).hasSize(INDEX_SHARDS);
                assertThat(max / fair).as(key).isLessThanOrEqualTo(1.5);
            }
        });
    }

    @Test
    void aPage_shouldCostOneQueryPerIndexShard_allInFlightAtOnce() throws Exception {
        // GIVEN 150 ms between function and engine, so that queries overlap visibly (as in ShardingTest)
        try (EngineProxy network = EngineProxy.withLatency(engine.endpoint, Duration.ofMillis(150))) {
            ListProjectsByStatusFunction function = new ListProjectsByStatusFunction(
                    DynamoDbClients.local(network.endpoint(), List.of()),
                    QueryPool.create(),
                    Api.config("ListProjectsByStatus", plan, table));
            ApiEvent event = ApiEvent.of("GET", ApiEvent.ALL_PROJECTS)
                    .query(Map.of("status", "ACTIVE", "limit", "25"))
                    .claims(operator());
            Lambda.invoke(function, event); // warm: connections and class loading
            Lambda.Response page = Lambda.invoke(function, event);
            Map<String, Object> log = Json.readObject(page.logLines().get(0));
            assertThat(page.status()).isEqualTo(200);
            // Round 1 asks every shard for its share and a margin, all at once; a second round (rarely) asks again
            // only the shards that can still reach the page.
            assertThat(page.dynamoCalls()).isBetween(INDEX_SHARDS, 2 * INDEX_SHARDS);
            assertThat(log.get("calls")).isEqualTo(page.dynamoCalls());
            assertThat(log.get("maxInFlight")).isEqualTo(INDEX_SHARDS);
            assertThat(page.ids("items")).hasSize(25);
            System.out.println("GET /projects page of 25: " + page.dynamoCalls() + " calls, " + log.get("maxInFlight")
                    + " in flight, " + page.dynamoCapacity() + " RCU");
        }
    }

    @Test
    void workspaces_shouldAllBeListedInIdOrder_acrossPagesOf7() {
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Lambda.Response page = workspacesPage(7, cursor);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            // One Query per shard on the first page's first round; later pages skip the shards the list has
            // exhausted. A second round, when the first fell short, asks only shards that can still reach the page.
            if (pages == 0) {
                assertThat(page.dynamoCalls()).isBetween(INDEX_SHARDS, 2 * INDEX_SHARDS);
            } else {
                assertThat(page.dynamoCalls()).isBetween(1, 2 * INDEX_SHARDS);
            }
            listed.addAll(page.ids("items"));
            cursor = page.nextCursor();
            pages++;
        } while (cursor != null);
        assertThat(listed).isEqualTo(workspaces.stream().sorted().toList());
        assertThat(pages).isEqualTo(6); // 40 = 5 pages of 7 and one of 5
    }

    @Test
    void aTenantToken_shouldGet403WithNoCall_onBothRoutes() {
        Map<String, Object> tenant = Map.of("sub", "user-1", "workspaces", hot, "scope", "openid oneread/api");
        for (Lambda.Response response : List.of(
                api.call(
                        "ListProjectsByStatus",
                        ApiEvent.of("GET", ApiEvent.ALL_PROJECTS)
                                .query(Map.of("status", "ACTIVE"))
                                .claims(tenant)),
                api.call(
                        "ListWorkspaces",
                        ApiEvent.of("GET", ApiEvent.WORKSPACES).claims(tenant)))) {
            assertThat(response.status()).isEqualTo(403);
            assertThat(response.dynamoCalls()).isZero();
        }
    }

    @Test
    void aCursor_shouldBeRefusedOnAnotherStatusOrRoute() {
        String active = byStatus(ProjectStatus.ACTIVE, 5, null).nextCursor();
        String registry = workspacesPage(5, null).nextCursor();
        Lambda.Response otherStatus = byStatus(ProjectStatus.PAUSED, 5, active);
        Lambda.Response otherRoute = workspacesPage(5, active);
        Lambda.Response backwards = byStatus(ProjectStatus.ACTIVE, 5, registry);
        for (Lambda.Response refused : List.of(otherStatus, otherRoute, backwards)) {
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.dynamoCalls()).isZero();
        }
        assertThat(byStatus(ProjectStatus.ACTIVE, 5, active).status()).isEqualTo(200);
    }

    @Test
    void status_shouldBeRequiredAndKnown() {
        for (Map<String, String> query :
                List.<Map<String, String>>of(Map.of(), Map.of("status", "active"), Map.of("status", "DONE"))) {
            Lambda.Response response = api.call(
                    "ListProjectsByStatus",
                    ApiEvent.of("GET", ApiEvent.ALL_PROJECTS).query(query).claims(operator()));
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.dynamoCalls()).isZero();
        }
    }
}
