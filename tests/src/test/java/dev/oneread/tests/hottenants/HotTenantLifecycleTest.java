package dev.oneread.tests.hottenants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.migratehottenant.MigrateHotTenantFunction;
import dev.oneread.jobs.JobTask;
import dev.oneread.jobs.TaskQueue;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.engine.EngineHeat;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.runner.QueuePoller;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.store.calls.CallPath;
import dev.oneread.store.calls.JobPace;
import dev.oneread.store.calls.Retries;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.OffersLoad;
import dev.oneread.tests.support.RunJobMapping;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The hot-tenant lifecycle, end to end, with the engine at scaled partition limits: a tenant under a steady load of
 * creates above its partition's write ceiling throttles; the stats job (RunJob behind the real job queue) counts it
 * and the hot-tenant report recommends N shards; the operator deploys the tenant onto N shards and runs the migration
 * while the load goes on; then, after a second deploy that ends the migration, the tenant serves the same load with
 * no throttle at all. All along: every acknowledged create is there at the end, no listing misses an acknowledged
 * project or shows one twice, and nothing answers 5xx but the throttling 503s sent before the switch. The
 * per-second timeline is printed.
 *
 * <p>The functions run in process, as bench/hot-tenant runs them: start-api runs one invocation of a function at a
 * time (Lambda would scale out), and a create throttled and retried holds that one for a second, so over HTTP the
 * queue, not the partition, would set the pace. A deploy is what start-api's redeploy does (RedeployTest): new
 * invocations get the new configuration (a new set of functions, swapped at once), and those in flight finish on
 * the old.
 */
@OffersLoad
@StartsProcesses
class HotTenantLifecycleTest {
    /** A fiftieth of DynamoDB's limits: 20 write units and 60 read units a second per partition key value. */
    private static final PartitionLimits LIMITS = new PartitionLimits(0.02);
    /** Creates offered a second, open loop: twice the unsharded partition's write ceiling. */
    private static final int OFFERED_PER_SECOND = 40;
    /** The report's threshold: the tenant passes it within the first seconds, and N comes out near 2 x count / it. */
    private static final int PROJECTS_THRESHOLD = 40;
    /** How long each steady phase of the load lasts. */
    private static final Duration BEFORE = Duration.ofSeconds(6);

    private static final Duration AFTER = Duration.ofSeconds(8);
    /** The most a wait for an event (a task's line, the load's end) takes: only a hang reaches it. */
    private static final Duration WAIT = Eventually.FAILSAFE;
    /** Clients at once: enough that a throttled create, retried for up to a second, does not hold the load back. */
    private static final int CLIENTS = 32;
    /** RunJob's timeout in template.yaml. */
    private static final int RUN_JOB_MILLIS = 60_000;

    private static final Map<String, Object> OPERATOR =
            Map.of("sub", "op", "workspaces", "", "scope", "openid oneread/admin");

    /** The phases of the run, in order; every request is counted in the phase in which it was sent. */
    enum Phase {
        BEFORE,
        STATS,
        MIGRATING,
        AFTER,
        DONE
    }

    /** One second of the timeline. */
    static final class Second {
        volatile Phase phase;
        final AtomicInteger offered = new AtomicInteger();
        final AtomicInteger accepted = new AtomicInteger();
        final AtomicInteger unavailable = new AtomicInteger();
        final Map<String, Long> throttles = new TreeMap<>();
    }

    private final Map<Long, Second> timeline = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final Map<Phase, AtomicInteger> unavailableBy = new ConcurrentHashMap<>();
    private volatile Phase phase = Phase.BEFORE;
    private final long started = System.nanoTime();

    @Test
    void hotTenant_shouldThrottle_thenBeReported_switched_migratedUnderLoad_andServeTheSameLoadUnthrottled()
            throws Exception {
        // GIVEN an engine at 1/50 of DynamoDB's partition limits, the functions deployed with no hot tenant, the
        // job queue with RunJob behind it (its share of a partition scaled as start-api scales it), and a report
        // threshold the tenant passes within seconds
        TestEngine engine = TestEngine.withLimits(LIMITS.scale());
        String table = "life-" + UUID.randomUUID().toString().substring(0, 8);
        String ws = Api.freshWorkspaceId("life");
        AtomicReference<Api> deployed = new AtomicReference<>(new Api(engine, ShardPlan.none(), table));
        assertThat(deployed.get().createWorkspace(ws, "Life").status()).isEqualTo(201);
        List<Map<String, Object>> jobLines = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch counted = new CountDownLatch(1);
        try (LocalQueues queues = LocalQueues.start(
                        SamTemplate.load(engine.root.resolve("template.yaml")), table, Duration.ofSeconds(30));
                QueuePoller worker = new RunJobMapping(
                                engine,
                                table,
                                ShardPlan.none(),
                                share(JobPace.Share.DEFAULT_FRACTION),
                                RUN_JOB_MILLIS,
                                new HotPartitionThreshold(PROJECTS_THRESHOLD, 1L << 30))
                        .start(
                                queues,
                                jobLines,
                                line -> ws.equals(line.get("workspaceId")) && Boolean.TRUE.equals(line.get("applied")),
                                counted,
                                false)) {

            // WHEN a steady load of creates, above the partition's ceiling, runs through every phase; a reader lists
            // the tenant's projects over and over; and each second the engine's throttles are read
            ScheduledExecutorService load = Executors.newScheduledThreadPool(3);
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            CountDownLatch firstListing = new CountDownLatch(1);
            try {
                load.scheduleAtFixedRate(
                        () -> create(clients, deployed::get, ws),
                        0,
                        1_000_000 / OFFERED_PER_SECOND,
                        TimeUnit.MICROSECONDS);
                load.scheduleAtFixedRate(() -> heat(engine, table, ws), 1, 1, TimeUnit.SECONDS);
                // a user paging through the whole tenant, then again a second later: a steady read load too
                load.scheduleWithFixedDelay(
                        () -> {
                            listAll(deployed.get(), ws);
                            firstListing.countDown();
                        },
                        0,
                        1,
                        TimeUnit.SECONDS);

                // before: the tenant alone on its partition, throttled
                Thread.sleep(BEFORE.toMillis()); // the load's own duration, not a wait for a result

                // the stats job counts it, and the report recommends shards
                phase = Phase.STATS;
                new TaskQueue(queues.client(), queues.url("JobQueue"))
                        .send(List.of(new JobTask(
                                JobTask.STATS,
                                WorkspaceId.of(ws),
                                Ulid.generator().next().value())));
                assertThat(counted.await(WAIT.toSeconds(), TimeUnit.SECONDS))
                        .as("the stats task's line: " + jobLines)
                        .isTrue();
                Lambda.Response report = deployed.get()
                        .call(
                                "GetHotTenantReport",
                                ApiEvent.of("GET", "/reports/hot-tenants")
                                        .query(Map.of("limit", "100"))
                                        .claims(OPERATOR));
                assertThat(report.status()).as(report.body()).isEqualTo(200);
                Map<String, Object> entry = entryOf(report.json(), ws);
                int shards = ((Number) entry.get("recommendedShards")).intValue();
                System.out.println("stats: " + jobLines + "; hot-tenant report: " + entry);

                // the operator deploys the tenant onto those shards, migrating, and runs the migration under load.
                // The tenant's creates now go to the shards, so the migration may take the whole of the old
                // partition's writes (JobPartitionShare 1): at the default quarter it would move 2.5 projects a second
                ShardPlan migrating = ShardPlan.parse(ws + "=" + shards, ws);
                deployed.set(new Api(engine, migrating, table));
                phase = Phase.MIGRATING;
                // (a client of its own, as its own Lambda function has, retrying as the job path does)
                MigrateHotTenantFunction migration = new MigrateHotTenantFunction(
                        engine.functionClient("MigrateHotTenant", table, List.of(), Retries.of(CallPath.JOB)),
                        Api.config("MigrateHotTenant", migrating, table),
                        share(1));
                List<Map<String, Object>> runs = new ArrayList<>();
                Map<String, Object> run;
                do {
                    run = Lambda.invokeJob(migration, Map.of("workspaceId", ws)).output();
                    runs.add(run);
                } while (!Boolean.TRUE.equals(run.get("done")) && runs.size() < 20);
                assertThat(run).as(runs.toString()).containsEntry("done", true);
                deployed.set(new Api(engine, ShardPlan.parse(ws + "=" + shards, ""), table));
                System.out.println("migration runs: " + runs);

                // after: the same load, on the shards
                phase = Phase.AFTER;
                Thread.sleep(AFTER.toMillis()); // the load's own duration
                phase = Phase.DONE;
            } finally {
                load.shutdown();
                assertThat(load.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS))
                        .isTrue();
                clients.shutdown();
                assertThat(clients.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS))
                        .isTrue();
            }
            assertThat(firstListing.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            printTimeline();

            // THEN the tenant was throttled before the switch: 503s with Retry-After, and the engine's own throttles
            Map<Phase, Long> throttles = throttlesByPhase();
            assertThat(unavailableIn(Phase.BEFORE)).isPositive();
            assertThat(throttles.getOrDefault(Phase.BEFORE, 0L)).isPositive();
            // AND after the switch and the migration, none: not one throttle at the engine, not one 503
            assertThat(unavailableIn(Phase.AFTER)).isZero();
            assertThat(throttles.getOrDefault(Phase.AFTER, 0L)).isZero();
            // AND every create offered after it was accepted; the generator's own pace (it falls behind on a busy
            // machine) is not the tenant's, so it only has to have kept up with most of the load
            assertThat(acceptedIn(Phase.AFTER)).isEqualTo(offeredIn(Phase.AFTER));
            assertThat(offeredIn(Phase.AFTER))
                    .as("creates offered after the migration")
                    .isGreaterThan((int) (OFFERED_PER_SECOND * AFTER.toSeconds() * 3 / 4));
            // AND nothing else went wrong: no other 5xx, no 503 from the switch on, no listing that missed or
            // doubled a project
            assertThat(unavailableIn(Phase.MIGRATING)).isZero();
            assertThat(problems).isEmpty();
            // AND every acknowledged create is there, once, on one final listing
            List<String> all = listAllOnce(deployed.get(), ws);
            assertThat(all).doesNotHaveDuplicates();
            assertThat(new HashSet<>(all)).containsAll(acknowledged);
        }
    }

    // ---- the load ----

    /**
     * Offers one create now; a client sends it when one is free, to the deployment live then (a create queued
     * behind throttled ones before a deploy reaches the new one, as a request sent after a deploy does on AWS).
     */
    private void create(ExecutorService clients, Supplier<Api> deployment, String ws) {
        Phase sentIn = phase;
        Second second = second();
        second.offered.incrementAndGet();
        clients.execute(() -> {
            Lambda.Response response = deployment.get().createProject(ws, "{\"name\":\"load\"}");
            if (response.status() == 201) {
                acknowledged.add((String) response.json().get("id"));
                second.accepted.incrementAndGet();
            } else if (response.status() == 503) {
                second.unavailable.incrementAndGet();
                unavailableBy.computeIfAbsent(sentIn, p -> new AtomicInteger()).incrementAndGet();
                if (!response.headers().containsKey("retry-after")) {
                    problems.add("a 503 without Retry-After");
                }
            } else {
                problems.add("create " + response.status() + " " + response.body());
            }
        });
    }

    /**
     * Lists every page of the tenant. A listing that completed must hold every project acknowledged before it
     * began, each once; one that met a 503 (allowed before the switch only) is not judged.
     */
    private void listAll(Api api, String ws) {
        Phase sentIn = phase;
        Set<String> mustSee = new HashSet<>(acknowledged);
        List<String> seen = new ArrayList<>();
        Map<String, String> query = new HashMap<>(Map.of("limit", "100"));
        String cursor;
        do {
            Lambda.Response page = api.listProjects(ws, query);
            if (page.status() == 503) {
                unavailableBy.computeIfAbsent(sentIn, p -> new AtomicInteger()).incrementAndGet();
                return;
            }
            if (page.status() != 200) {
                problems.add("list " + page.status() + " " + page.body());
                return;
            }
            seen.addAll(page.ids("items"));
            cursor = page.nextCursor();
            query.put("cursor", cursor);
        } while (cursor != null);
        if (new HashSet<>(seen).size() != seen.size()) {
            problems.add("a listing in " + sentIn + " showed a project twice");
        }
        mustSee.removeAll(seen);
        if (!mustSee.isEmpty()) {
            problems.add("a listing in " + sentIn + " missed " + mustSee.size() + " acknowledged projects");
        }
    }

    /** The final listing, the load stopped: begun again after a 503's Retry-After, as a client would. */
    private static List<String> listAllOnce(Api api, String ws) throws InterruptedException {
        for (int attempt = 0; attempt < 10; attempt++) {
            List<String> seen = new ArrayList<>();
            Map<String, String> query = new HashMap<>(Map.of("limit", "100"));
            String cursor = null;
            boolean whole = true;
            do {
                Lambda.Response page = api.listProjects(ws, query);
                if (page.status() != 200) {
                    whole = false;
                    break;
                }
                seen.addAll(page.ids("items"));
                cursor = page.nextCursor();
                query.put("cursor", cursor);
            } while (cursor != null);
            if (whole) {
                return seen;
            }
            Thread.sleep(1_000); // Retry-After: 1
        }
        throw new AssertionError("no whole listing in 10 tries");
    }

    // ---- the timeline ----

    private Second second() {
        long at = (System.nanoTime() - started) / 1_000_000_000L;
        Second second = timeline.computeIfAbsent(at, s -> new Second());
        if (second.phase == null) {
            second.phase = phase;
        }
        return second;
    }

    private Map<String, Long> lastThrottles = Map.of();

    /** Once a second: the engine's throttles on the tenant's partitions (every shard), by reason, since the last. */
    private void heat(TestEngine engine, String table, String ws) {
        Map<String, Long> now = new TreeMap<>();
        for (EngineHeat.Partition partition : engine.heat().partitionsOf(table, null)) {
            if (partition.key().equals("WS#" + ws) || partition.key().startsWith("WS#" + ws + "#")) {
                partition.throttled().forEach((reason, n) -> now.merge(reason, n, Long::sum));
            }
        }
        Second second = second();
        synchronized (second.throttles) {
            now.forEach((reason, n) -> second.throttles.put(reason, n - lastThrottles.getOrDefault(reason, 0L)));
        }
        lastThrottles = now;
    }

    private Map<Phase, Long> throttlesByPhase() {
        Map<Phase, Long> byPhase = new LinkedHashMap<>();
        timeline.values()
                .forEach(s -> byPhase.merge(
                        s.phase,
                        s.throttles.values().stream().mapToLong(Long::longValue).sum(),
                        Long::sum));
        return byPhase;
    }

    private int unavailableIn(Phase phase) {
        return unavailableBy.getOrDefault(phase, new AtomicInteger()).get();
    }

    private int offeredIn(Phase phase) {
        return timeline.values().stream()
                .filter(s -> s.phase == phase)
                .mapToInt(s -> s.offered.get())
                .sum();
    }

    private int acceptedIn(Phase phase) {
        return timeline.values().stream()
                .filter(s -> s.phase == phase)
                .mapToInt(s -> s.accepted.get())
                .sum();
    }

    private void printTimeline() {
        System.out.printf(
                "partition limits %s x DynamoDB's (%d WCU a partition); %d creates offered a second%n",
                LIMITS, Math.round(LIMITS.writeUnitsPerSecond()), OFFERED_PER_SECOND);
        System.out.println("| second | phase | offered | accepted (201) | 503 | engine throttles by reason |");
        System.out.println("|---|---|---|---|---|---|");
        new TreeMap<>(timeline)
                .forEach((at, s) -> System.out.printf(
                        Locale.ROOT,
                        "| %d | %s | %d | %d | %d | %s |%n",
                        at,
                        s.phase,
                        s.offered.get(),
                        s.accepted.get(),
                        s.unavailable.get(),
                        s.throttles));
    }

    /** {@code fraction} of a partition of this engine: the template's JobPartitionShare, scaled as start-api does. */
    private static JobPace.Share share(double fraction) {
        return new JobPace.Share(LIMITS.readUnitsPerSecond() * fraction, LIMITS.writeUnitsPerSecond() * fraction);
    }

    private static Map<String, Object> entryOf(Map<String, Object> report, String ws) {
        return ((List<?>) report.get("items"))
                .stream()
                        .map(item -> Json.readObject(Json.write(item)))
                        .filter(item -> ws.equals(item.get("workspaceId")))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no report entry for " + ws + ": " + report));
    }
}
