package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.listprojects.ListProjectsFunction;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.EngineProxy;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.Pages;
import dev.oneread.tests.support.Partitions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/** A hot tenant with 10 shards: distribution, exact newest-first paging, one-call point reads, fan-out. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardingTest {
    private static final int PROJECTS = 1000;
    private final String ws = Api.freshWorkspaceId("hot");
    private final Api api = new Api(ShardPlan.parse(ws + "=10", ""));
    private final List<String> created = new ArrayList<>();
    private final ExecutorService pool = Executors.newFixedThreadPool(8);

    @BeforeAll
    void create1000Projects() throws Exception {
        assertThat(api.createWorkspace(ws, "Hot").status()).isEqualTo(201);
        List<Callable<String>> creates = new ArrayList<>();
        for (int i = 0; i < PROJECTS; i++) {
            String body = "{\"name\":\"p" + i + "\"}";
            creates.add(() -> (String) api.createProject(ws, body).json().get("id"));
        }
        for (Future<String> f : pool.invokeAll(creates)) {
            created.add(f.get());
        }
    }

    @AfterAll
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void projects_shouldSpreadEvenlyOverTheShards_andTheWorkspaceStayUnsharded() {
        // Dump the partition keys: every shard holds 100 +- 40 of the 1,000.
        Map<String, Integer> perShard = new TreeMap<>();
        for (int shard = 1; shard <= 10; shard++) {
            String partition = "WS#" + ws + "#" + (shard < 10 ? "0" : "") + shard;
            perShard.put(
                    partition, Partitions.items(api.engine.client, partition).size());
        }
        System.out.println("items per shard: " + perShard);
        assertThat(perShard.values()).allSatisfy(n -> assertThat(n).isBetween(60, 140));
        assertThat(perShard.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(PROJECTS);
        assertThat(Partitions.items(api.engine.client, "WS#" + ws))
                .extracting(i -> i.get("Detail").s())
                .containsExactly("META");
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {1, 7, 100})
    void list_shouldPageExactlyNewestFirstAcrossShards_withTenParallelQueriesPerFirstPage(int limit) {
        List<String> expected = new ArrayList<>(created);
        expected.sort(Comparator.reverseOrder());
        List<Lambda.Response> pages =
                Pages.follow(Map.of("limit", Integer.toString(limit)), query -> api.listProjects(ws, query));
        List<String> listed = new ArrayList<>();
        for (Lambda.Response page : pages) {
            List<String> ids = page.ids("items");
            assertThat(ids).hasSize(page.nextCursor() == null ? expected.size() - listed.size() : limit);
            listed.addAll(ids);
            // Round 1 asks each shard not yet exhausted for its share of the page and a margin; round 2, rarely,
            // again those that can still reach the page: at most twice the 10 shards.
            assertThat(page.dynamoCalls()).isBetween(1, 20);
        }
        assertThat(pages.get(0).dynamoCalls())
                .as("the first page asks every shard")
                .isBetween(10, 20);
        assertThat(new HashSet<>((List<Object>)
                        Json.readObject(pages.get(0).logLines().get(0)).get("partitions")))
                .as("the first page asks every shard")
                .hasSize(10);
        assertThat(listed).isEqualTo(expected);
        assertThat(new HashSet<>(listed)).hasSize(PROJECTS);
    }

    @Test
    void aPage_shouldHaveAllTenShardQueriesInFlightAtOnce() throws Exception {
        // GIVEN 150 ms between function and engine, as a slow network has (dynalite on loopback answers in well
        // under a millisecond, faster than the SDK can issue the next request, so overlap would not show). 40 ms
        // was too short on a loaded 2-core machine: the first answers came back before the last query was sent.
        try (EngineProxy network = EngineProxy.withLatency(api.engine.endpoint, java.time.Duration.ofMillis(150))) {
            ListProjectsFunction list = new ListProjectsFunction(
                    DynamoDbClients.local(network.endpoint(), List.of()),
                    QueryPool.create(),
                    Api.config("ListProjects", ShardPlan.parse(ws + "=10", "")));
            ApiEvent event = ApiEvent.of("GET", ApiEvent.PROJECTS)
                    .path("workspaceId", ws)
                    .query(Map.of("limit", "25"));
            Lambda.invoke(list, event); // warm the client: connections and class loading
            // WHEN
            Lambda.Response page = Lambda.invoke(list, event);
            // THEN 10 calls (a second round, from the few shards that could still reach the page, when round 1's
            // share and margin fell short: for a page of 25 about 1 in 200), and the log line says all 10 of round
            // 1 were on the wire together
            Map<String, Object> log = Json.readObject(page.logLines().get(0));
            System.out.println("fan-out page: calls " + log.get("calls") + ", max in flight " + log.get("maxInFlight")
                    + ", " + log.get("durationMs") + " ms with 150 ms latency");
            assertThat(page.status()).isEqualTo(200);
            assertThat((int) log.get("calls")).isBetween(10, 20);
            assertThat(log.get("maxInFlight")).isEqualTo(10);
        }
    }

    @Test
    void getProject_shouldBeOneCall_inItsShard() {
        for (String id : created.subList(0, 20)) {
            Lambda.Response response = api.getProject(ws, id);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.dynamoCalls()).isEqualTo(1);
            assertThat(response.dynamoCapacity()).isEqualByComparingTo("0.5");
            List<Object> partitions =
                    (List<Object>) Json.readObject(response.logLines().get(0)).get("partitions");
            assertThat(partitions)
                    .hasSize(1)
                    .allSatisfy(p -> assertThat((String) p).matches("WS#" + ws + "#(0[1-9]|10)"));
        }
    }

    @Test
    void newProjectsBetweenPages_shouldNeitherRepeatNorShiftThePages() {
        Lambda.Response first = api.listProjects(ws, Map.of("limit", "50"));
        List<String> seen = new ArrayList<>(first.ids("items"));
        // WHEN new projects land in every shard between page fetches
        for (int i = 0; i < 30; i++) {
            api.createProject(ws, "{\"name\":\"late " + i + "\"}");
        }
        Lambda.Response second = api.listProjects(ws, Map.of("limit", "50", "cursor", first.nextCursor()));
        seen.addAll(second.ids("items"));
        // THEN page two continues exactly where page one ended
        List<String> expected = new ArrayList<>(created);
        expected.sort(Comparator.reverseOrder());
        assertThat(seen).isEqualTo(expected.subList(0, 100));
    }

    @Test
    @SuppressWarnings("unchecked")
    void collection_shouldFanOutToo_workspaceFirst() {
        Lambda.Response page = api.collection(ws, Map.of("limit", "20"));

        assertThat(page.status()).isEqualTo(200);
        assertThat((Map<String, Object>) page.json().get("workspace")).containsEntry("id", ws);
        List<String> ids = page.ids("projects");
        List<String> oldest = new ArrayList<>(created);
        oldest.sort(Comparator.naturalOrder());
        assertThat(ids).isEqualTo(oldest.subList(0, 19));
        // the workspace's own partition (META) and 10 shards, and rarely a second round from those that can still
        // reach the page
        assertThat(page.dynamoCalls()).isBetween(11, 22);
    }

    @Test
    void aFailingShard_shouldFailThePageWith503_neverAPartialPage() {
        // GIVEN an engine whose shard 07 answers 500 on every attempt
        ExecutionInterceptor brokenShard = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.request() instanceof QueryRequest q
                        && q.expressionAttributeValues().get(":er").equals(AttributeValue.fromS("WS#" + ws + "#07"))) {
                    throw InternalServerErrorException.builder()
                            .statusCode(500)
                            .message("injected")
                            .build();
                }
            }
        };
        ListProjectsFunction list = new ListProjectsFunction(
                api.engine.functionClient("ListProjects", api.table, List.of(brokenShard)),
                QueryPool.create(),
                Api.config("ListProjects", ShardPlan.parse(ws + "=10", "")));
        // WHEN
        Lambda.Response response =
                Lambda.invoke(list, ApiEvent.of("GET", ApiEvent.PROJECTS).path("workspaceId", ws));
        // THEN
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.headers()).containsKey("retry-after");
        assertThat(response.body()).doesNotContain("items");
    }
}
