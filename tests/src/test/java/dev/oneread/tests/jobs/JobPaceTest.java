package dev.oneread.tests.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.jobs.JobTask;
import dev.oneread.jobs.TaskQueue;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.engine.EngineHeat;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.runner.QueuePoller;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.CreateWorkspaceOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.store.calls.JobPace;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.BulkLoad;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.OffersLoad;
import dev.oneread.tests.support.RunJobMapping;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Jobs are partition consumers too: under partition limits (scaled down, so that a 2-core machine reaches them),
 * the stats task over a tenant of thousands of projects takes only its share of the tenant's partition, so the
 * tenant's own reads go on unthrottled while it counts; and it, like the purge, completes through continuations
 * when each invocation has only a little time (no task dies at its timeout and starts over).
 *
 * <p>The data is written before the limits are on ({@link TestEngine#preloaded}): writing it under them would take
 * six times as long as reading it at a quarter share.
 */
@OffersLoad
@StartsProcesses
class JobPaceTest {
    /** Each invocation's remaining time: the pace's stop margin and 0.6 s, a page or two before a continuation. */
    private static final int REMAINING_MILLIS = (int) JobPace.STOP_MARGIN.toMillis() + 600;
    /** The template's default share of a partition. */
    private static final double FRACTION = JobPace.Share.DEFAULT_FRACTION;
    /** How long a test waits for a job at most (only a hang reaches it); it ends as soon as the job's last line is
     * logged. */
    private static final Duration LIMIT = Eventually.FAILSAFE;

    private final String table = "pace-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<Map<String, Object>> lines = Collections.synchronizedList(new ArrayList<>());

    @Test
    void stats_shouldCompleteThroughContinuations_whileTheTenantsReadsAreNeverThrottled() throws Exception {
        // GIVEN limits at 1/50 of DynamoDB's (60 read units a second per partition), and a tenant of 2,500
        // projects: five of the stats task's 499-item pages, each about a third of the partition's second
        PartitionLimits limits = new PartitionLimits(0.02);
        WorkspaceId tenant = WorkspaceId.of(Api.freshWorkspaceId("pace"));
        int projects = 2_500;
        List<ProjectId> ids = new ArrayList<>();
        TestEngine engine = TestEngine.preloaded(limits, loading -> ids.addAll(load(loading, tenant, projects)));
        Api api = new Api(engine, ShardPlan.none(), table);
        // AND a worker taking the default quarter of each partition, each invocation with 5.6 s left
        JobPace.Share share = share(limits);
        CountDownLatch counted = new CountDownLatch(1);
        try (LocalQueues queues = queues(engine);
                QueuePoller poller = worker(
                        engine,
                        queues,
                        share,
                        line -> "stats".equals(line.get("task")) && Boolean.TRUE.equals(line.get("applied")),
                        counted)) {
            // WHEN the tenant reads (a GetProject and a ListProjects page, about 20 read units a second: below its
            // partition's 60 less the job's 15), and the stats task runs meanwhile, until it has counted
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch reading = new CountDownLatch(1);
            List<Integer> statuses = Collections.synchronizedList(new ArrayList<>());
            CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
                for (int i = 0; !done.get(); i++) {
                    statuses.add(api.getProject(
                                    tenant.value(), ids.get(i % ids.size()).value())
                            .status());
                    statuses.add(api.listProjects(tenant.value(), Map.of("limit", "20"))
                            .status());
                    reading.countDown();
                    pause(READ_INTERVAL); // the tenant's offered rate, not a wait for the job
                }
            });
            assertThat(reading.await(LIMIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
            int readsBefore = statuses.size();
            new TaskQueue(queues.client(), queues.url("JobQueue"))
                    .send(List.of(new JobTask(
                            JobTask.STATS, tenant, Ulid.generator().next().value())));
            assertThat(counted.await(LIMIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the stats task completes")
                    .isTrue();
            int readsDuring = statuses.size() - readsBefore;
            done.set(true);
            reader.join();

            // THEN it counted every project, through more than one continuation
            List<Map<String, Object>> stats = linesOf("stats");
            System.out.println("stats invocations: " + stats);
            Map<String, Object> last = stats.get(stats.size() - 1);
            assertThat(last).containsEntry("applied", true);
            assertThat(((Map<?, ?>) last.get("counts"))
                            .values().stream()
                                    .mapToInt(n -> ((Number) n).intValue())
                                    .sum())
                    .isEqualTo(projects);
            long continuations = stats.stream()
                    .filter(l -> "continues".equals(l.get("state")))
                    .count();
            assertThat(continuations).isGreaterThan(1);
            assertThat(stats.stream()
                            .mapToInt(l -> ((Number) l.get("pages")).intValue())
                            .sum())
                    .as("no page read twice: each continuation goes on where the last stopped (five full pages of"
                            + " 500, and the empty one after the last full page's LastEvaluatedKey)")
                    .isEqualTo(6);
            // AND the tenant read all along, and no read of it was throttled, at the engine or to the client
            assertThat(readsDuring).isGreaterThan(10);
            assertThat(statuses).containsOnly(200);
            EngineHeat.Partition heat = engine.heat()
                    .partition(table, null, KeyCodec.workspacePartition(tenant))
                    .orElseThrow();
            System.out.println("tenant partition heat: " + heat + "; " + readsDuring + " reads during the count");
            assertThat(heat.throttled()).isEmpty();
        }
    }

    @Test
    void purge_shouldCompleteThroughContinuations_withinItsShareOfThePartitionsWrites() throws Exception {
        // GIVEN limits at 1/10 of DynamoDB's (100 write units a second per partition), a tenant of 150 projects,
        // and a worker taking a quarter (25 units a second), each invocation with 5.6 s left
        PartitionLimits limits = new PartitionLimits(0.1);
        WorkspaceId tenant = WorkspaceId.of(Api.freshWorkspaceId("pacepurge"));
        int projects = 150;
        TestEngine engine = TestEngine.preloaded(limits, loading -> load(loading, tenant, projects));
        CountDownLatch purged = new CountDownLatch(1);
        try (LocalQueues queues = queues(engine);
                QueuePoller poller =
                        worker(engine, queues, share(limits), line -> "purged".equals(line.get("state")), purged)) {
            Api api = new Api(engine, ShardPlan.none(), table)
                    .withJobQueue(queues.client(), queues.url("JobQueue"), Duration.ZERO);

            // WHEN an operator deletes the workspace
            assertThat(api.deleteWorkspace(tenant.value(), null).status()).isEqualTo(202);
            assertThat(purged.await(LIMIT.toSeconds(), TimeUnit.SECONDS))
                    .as("the purge completes")
                    .isTrue();

            // THEN the purge went on through more than one continuation, deleted everything, and its writes were
            // never throttled
            List<Map<String, Object>> purge = linesOf("purge");
            System.out.println("purge invocations: " + purge);
            assertThat(purge.stream()
                            .filter(l -> "continues".equals(l.get("state")))
                            .count())
                    .isGreaterThan(1);
            assertThat(purge.stream()
                            .mapToInt(l -> ((Number) l.get("deleted")).intValue())
                            .sum())
                    .isEqualTo(projects + 1);
            assertThat(engine.client.scan(s -> s.tableName(table)).items()).isEmpty();
            EngineHeat.Partition heat = engine.heat()
                    .partition(table, null, KeyCodec.workspacePartition(tenant))
                    .orElseThrow();
            System.out.println("purged partition heat: " + heat);
            assertThat(heat.throttled()).isEmpty();
        }
    }

    /** The tenant's reads: a GetProject and a ListProjects page every 100 ms, about 20 read units a second. */
    private static final Duration READ_INTERVAL = Duration.ofMillis(100);

    /** The default fraction of a partition, at the engine's scale (the template's fraction is of DynamoDB's). */
    private static JobPace.Share share(PartitionLimits limits) {
        return new JobPace.Share(limits.readUnitsPerSecond() * FRACTION, limits.writeUnitsPerSecond() * FRACTION);
    }

    private LocalQueues queues(TestEngine engine) {
        return LocalQueues.start(SamTemplate.load(engine.root.resolve("template.yaml")), table, Duration.ofSeconds(30));
    }

    /** RunJob behind the job queue, each invocation with {@link #REMAINING_MILLIS} left. */
    private QueuePoller worker(
            TestEngine engine,
            LocalQueues queues,
            JobPace.Share share,
            Predicate<Map<String, Object>> last,
            CountDownLatch finished) {
        return new RunJobMapping(engine, table, ShardPlan.none(), share, REMAINING_MILLIS)
                .start(queues, lines, last, finished, false);
    }

    private List<Map<String, Object>> linesOf(String task) {
        synchronized (lines) {
            return lines.stream().filter(l -> task.equals(l.get("task"))).toList();
        }
    }

    /** The tenant and its projects, in every status, as the store writes them; their ids. */
    private List<ProjectId> load(TestEngine engine, WorkspaceId tenant, int projects) {
        new Api(engine, ShardPlan.none(), table); // the table, from template.yaml
        OperationContext requests = OperationContext.of(table, ShardPlan.none());
        Instant now = Instant.now();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        items.add(CreateWorkspaceOperation.generateRequest(
                        requests, new Workspace(tenant, "Paced", Map.of(), now, now, 1), CreationToken.random())
                .item());
        Ulid generator = Ulid.generator();
        List<ProjectId> ids = new ArrayList<>();
        ProjectStatus[] statuses = ProjectStatus.values();
        for (int i = 0; i < projects; i++) {
            ProjectId id = generator.next();
            ids.add(id);
            items.add(CreateProjectOperation.generateRequest(
                            requests,
                            new Project(id, tenant, "project " + i, null, statuses[i % statuses.length], now, now, 1),
                            CreationToken.random())
                    .item());
        }
        BulkLoad.putAll(engine.client, table, items);
        return ids;
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
