package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.local.engine.EngineHeat;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.OffersLoad;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The API while DynamoDB says no, on an engine of its own whose partition limits are a hundredth of DynamoDB's (10
 * write units a second per partition key value): what the hot tenant meets, reached on a 2-core machine.
 */
@OffersLoad
@StartsProcesses
class ThrottlingApiTest {
    private static final double SCALE = 0.01;
    private static final int CLIENTS = 50;
    /** No retry loop runs forever: far more rounds than the partition needs to serve every client. */
    private static final int MAX_ROUNDS = 200;
    /** What a problem body that names no internals must not contain. */
    private static final List<String> INTERNALS =
            List.of("Exception", "arn:", TestEngine.TABLE, "WS#", "PROJ#", "Throttl", "ThroughputExceeded", "dynamo");

    private final TestEngine engine = TestEngine.withLimits(SCALE);

    /** What one client saw until its project was created. */
    private record Outcome(String projectId, int unavailable, int throttles) {}

    @Test
    void fiftyIdempotentClients_onOneHotPartition_eachGetExactlyOneProject_and503sCarryRetryAfter() throws Exception {
        // GIVEN one unsharded workspace and 50 clients, each with its own Idempotency-Key
        String ws = Api.freshWorkspaceId("throttled");
        Api api = new Api(engine, ShardPlan.none(), TestEngine.TABLE);
        createdEventually(() -> api.createWorkspace(ws, "Throttled"));
        long throttlesBefore = throttles(engine.heat());
        // WHEN they all create at once, far beyond the partition's write rate, retrying each 503 as told
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        List<Future<Outcome>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            String key = "key-" + c;
            clients.add(pool.submit(() -> createUntilCreated(api, ws, "{\"name\":\"" + key + "\"}", key)));
        }
        List<Outcome> outcomes = new ArrayList<>();
        for (Future<Outcome> f : clients) {
            outcomes.add(f.get());
        }
        pool.shutdown();
        // THEN the partition holds exactly 50 projects, one per key, and a replay of each key answers its own
        List<String> ids = outcomes.stream().map(Outcome::projectId).toList();
        assertThat(Set.copyOf(ids)).hasSize(CLIENTS);
        assertThat(Set.copyOf(api.listAllProjects(ws))).isEqualTo(Set.copyOf(ids));
        for (int c = 0; c < CLIENTS; c++) {
            String key = "key-" + c;
            Outcome replay = createUntilCreated(api, ws, "{\"name\":\"" + key + "\"}", key);
            assertThat(replay.projectId()).as(key).isEqualTo(ids.get(c));
        }
        // AND the load really was throttled, the engine's heat says so, and the X-Dynamo-Throttles headers said so
        // too. Not compared one for one: an attempt the SDK abandons at its attempt timeout is throttled at the
        // engine but never seen by the caller, and in some runs the headers counted a few more throttled attempts
        // than the heat (425 against 417); that excess is not explained yet and is reported open on issue 23.
        int headerThrottles = outcomes.stream().mapToInt(Outcome::throttles).sum();
        assertThat(headerThrottles).isPositive();
        assertThat(outcomes.stream().mapToInt(Outcome::unavailable).sum())
                .as("503s")
                .isPositive();
        assertThat(throttles(engine.heat()) - throttlesBefore).isPositive();
    }

    @Test
    void shardedList_whoseShardsThrottle_answers503_neverAPartialPage() throws Exception {
        // GIVEN a workspace in 4 shards with 8 projects
        String ws = Api.freshWorkspaceId("throttled-list");
        ShardPlan plan = ShardPlan.parse(ws + "=4", "");
        // At a thousandth of DynamoDB's limits (3 RCU a second per shard), so that 16 readers throttle the shards
        // however slow the machine is: at a hundredth, a loaded CI machine read too slowly to throttle them.
        Api api = new Api(TestEngine.withLimits(SCALE / 10), plan, TestEngine.TABLE);
        createdEventually(() -> api.createWorkspace(ws, "Throttled list"));
        for (int p = 0; p < 8; p++) {
            createUntilCreated(api, ws, "{\"name\":\"p" + p + "\"}", "k" + p);
        }
        // WHEN 16 readers list it at once, many times over the shards' read rate
        int readers = 16;
        AtomicInteger full = new AtomicInteger();
        AtomicInteger unavailable = new AtomicInteger();
        List<String> wrong = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        List<Future<?>> runs = new ArrayList<>();
        for (int r = 0; r < readers; r++) {
            runs.add(pool.submit(() -> {
                for (int i = 0; i < 40 && unavailable.get() < readers; i++) {
                    Lambda.Response page = api.listProjects(ws, Map.of("limit", "100"));
                    if (page.status() == 200) {
                        int items = page.ids("items").size();
                        if (items == 8) {
                            full.incrementAndGet();
                        } else {
                            wrong.add("a page of " + items);
                        }
                    } else if (page.status() == 503) {
                        unavailable.incrementAndGet();
                        assertUnavailableProblem(page);
                    } else {
                        wrong.add(page.status() + " " + page.body());
                    }
                }
            }));
        }
        for (Future<?> run : runs) {
            run.get();
        }
        pool.shutdown();
        // THEN each answer is the whole page or a 503: never fewer items
        assertThat(wrong).isEmpty();
        assertThat(unavailable.get()).as("503s").isPositive();
        assertThat(full.get()).as("whole pages").isPositive();
    }

    @Test
    void logLine_countsThrottles_asAnEmbeddedMetric() throws Exception {
        // GIVEN a hot workspace partition, throttled by 20 clients at once
        String ws = Api.freshWorkspaceId("throttled-emf");
        Api api = new Api(engine, ShardPlan.none(), TestEngine.TABLE);
        createdEventually(() -> api.createWorkspace(ws, "Throttled EMF"));
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Future<Lambda.Response>> runs = new ArrayList<>();
        for (int c = 0; c < 20; c++) {
            String key = "emf-" + c;
            runs.add(pool.submit(() -> api.createProject(ws, "{\"name\":\"p\"}", key)));
        }
        int throttledLines = 0;
        for (Future<Lambda.Response> run : runs) {
            Lambda.Response r = run.get();
            Map<String, Object> line = Json.readObject(r.logLines().get(0));
            // THEN every line carries throttles as a metric, equal to the response's header
            assertThat(line.get("throttles"))
                    .isEqualTo(Integer.parseInt(r.headers().get("x-dynamo-throttles")));
            if (((Number) line.get("throttles")).intValue() > 0) {
                throttledLines++;
            }
        }
        pool.shutdown();
        assertThat(throttledLines).isPositive();
    }

    /** A client that retries a 503 (and a 409 "in progress") after its Retry-After, until it gets its 201. */
    private static Outcome createUntilCreated(Api api, String ws, String body, String key) throws InterruptedException {
        int unavailable = 0;
        int throttles = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Lambda.Response r = api.createProject(ws, body, key);
            throttles += Integer.parseInt(r.headers().get("x-dynamo-throttles"));
            if (r.status() == 201) {
                return new Outcome((String) r.json().get("id"), unavailable, throttles);
            }
            assertThat(r.status()).as(r.body()).isIn(503, 409);
            if (r.status() == 503) {
                unavailable++;
                assertUnavailableProblem(r);
            }
            // A real wait, not a latch: what ends a throttle is the partition's bucket refilling with time, and
            // what ends an "in progress" is the first attempt's claim expiring; no event of ours signals either.
            Thread.sleep(1000L * Long.parseLong(r.headers().get("retry-after")));
        }
        throw new AssertionError(key + " not created after " + MAX_ROUNDS + " rounds");
    }

    private static void createdEventually(java.util.function.Supplier<Lambda.Response> create)
            throws InterruptedException {
        for (int round = 0; round < MAX_ROUNDS; round++) {
            Lambda.Response r = create.get();
            if (r.status() == 201) {
                return;
            }
            assertThat(r.status()).as(r.body()).isEqualTo(503);
            Thread.sleep(1000L * Long.parseLong(r.headers().get("retry-after")));
        }
        throw new AssertionError("not created");
    }

    private static void assertUnavailableProblem(Lambda.Response r) {
        assertThat(r.contentType()).isEqualTo("application/problem+json");
        assertThat(r.headers().get("retry-after")).isEqualTo("1");
        assertThat(r.json()).containsEntry("status", 503);
        assertThat(Integer.parseInt(r.headers().get("x-dynamo-throttles"))).isPositive();
        for (String internal : INTERNALS) {
            assertThat(r.body()).doesNotContainIgnoringCase(internal);
        }
    }

    /** Every throttle the engine answered, by partition and reason, and the table's own. */
    private static long throttles(EngineHeat.Snapshot heat) {
        return heat.partitions().stream()
                        .mapToLong(EngineHeat.Partition::throttledTotal)
                        .sum()
                + heat.tables().stream()
                        .flatMap(t -> t.throttled().values().stream())
                        .mapToLong(Long::longValue)
                        .sum();
    }
}
