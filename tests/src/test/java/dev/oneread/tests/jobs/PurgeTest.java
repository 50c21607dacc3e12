package dev.oneread.tests.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.createproject.CreateProjectFunction;
import dev.oneread.functions.runjob.RunJobFunction;
import dev.oneread.jobs.JobTask;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.runner.QueuePoller;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.model.CreationToken;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.NewProject;
import dev.oneread.model.ProjectStatus;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.IndexTruth;
import dev.oneread.tests.support.JobFunctions;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.MovableClock;
import dev.oneread.tests.support.Pages;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * DELETE /workspaces/{id} and the purge task, on a real SQS-compatible queue (embedded ElasticMQ) and the engine:
 * a workspace is gone to every reader at once, and its whole collection, every shard, idempotency records and
 * index entries, goes with the task; a create racing the DELETE leaves no orphan, because the sweep waits out the
 * fence.
 */
class PurgeTest {
    private static final Duration FENCE = Duration.ofSeconds(2);
    /** RunJob's PURGE_FENCE_SECONDS as template.yaml deploys it (62 s). */
    private static final Duration DEPLOYED_FENCE = deployedFence();

    private final TestEngine engine = TestEngine.get();
    /** The test's own client, for its set-up and its Scans: it waits as long as a busy engine takes. */
    private final DynamoDbClient patient = DynamoDbClients.local(engine.endpoint, TestEngine.PATIENT);

    private final String table = "purge-" + UUID.randomUUID().toString().substring(0, 8);
    private final String plain = Api.freshWorkspaceId("purge");
    private final String hot = Api.freshWorkspaceId("purgehot");
    private final String kept = Api.freshWorkspaceId("kept");
    private final ShardPlan plan = ShardPlan.parse(hot + "=10", "");
    private final List<Map<String, Object>> lines = Collections.synchronizedList(new ArrayList<>());
    /**
     * The time of the DELETE and of the worker in the tests that move time (the others run on the system's clock:
     * a run id's time, always the real one, must not lie ahead of the worker's by more than the allowed skew).
     */
    private final MovableClock clock = new MovableClock();
    /** Invocations of the worker running now. */
    private final AtomicInteger running = new AtomicInteger();

    private Api api;
    private LocalQueues queues;
    private QueuePoller poller;

    @BeforeEach
    void start() {
        start(FENCE, FENCE, Clock.systemUTC());
    }

    /**
     * The job queue, DeleteWorkspace delaying its task by {@code delay}, and a worker polling the queue that sweeps
     * {@code fence} after the DELETE, both on {@code clock}.
     */
    private void start(Duration delay, Duration fence, Clock clock) {
        api = new Api(plan, table);
        queues =
                LocalQueues.start(SamTemplate.load(engine.root.resolve("template.yaml")), table, Duration.ofSeconds(1));
        api.withJobQueue(queues.client(), queues.url("JobQueue"), delay, clock);
        FunctionConfig config = Api.config("RunJob", plan, table);
        RunJobFunction worker = new RunJobFunction(RunJobFunction.Dependencies.of(
                        engine.functionClient("RunJob", table), queues::client, queues.url("JobQueue"), config)
                .withPurgeFence(fence)
                .withHot(HotPartitionThreshold.defaults())
                .withClock(clock));
        poller = QueuePoller.start(
                queues.client(),
                queues.url("JobQueue"),
                queues.arn("JobQueue"),
                10,
                2,
                event -> {
                    running.incrementAndGet();
                    try {
                        return JobFunctions.invoke(worker, event, lines);
                    } finally {
                        running.decrementAndGet();
                    }
                },
                new PrintStream(new ByteArrayOutputStream()));
    }

    @AfterEach
    void stop() {
        poller.close();
        queues.close();
    }

    @AfterEach
    void closeClient() {
        patient.close();
    }

    @Test
    void purge_shouldLeaveNoItemAndNoIndexEntry_ofAPlainAndAShardedWorkspace_andBeHarmlessTwice() throws Exception {
        // GIVEN a workspace with 300 projects (two created with an Idempotency-Key), a hot tenant of 10 shards
        // with 500, and a workspace that stays
        fill(plain, 300);
        for (int i = 0; i < 2; i++) {
            assertThat(api.call(
                                    "CreateProject",
                                    ApiEvent.of("POST", ApiEvent.PROJECTS)
                                            .path("workspaceId", plain)
                                            .header(
                                                    "Idempotency-Key",
                                                    UUID.randomUUID().toString())
                                            .body("{\"name\":\"keyed\"}"))
                            .status())
                    .isEqualTo(201);
        }
        fill(hot, 500);
        fill(kept, 5);
        assertThat(itemsOf(plain)).hasSize(1 + 302 + 2); // the workspace, its projects, 2 idempotency records
        assertThat(itemsOf(hot)).hasSize(1 + 500);
        List<Map<String, AttributeValue>> keptBefore = itemsOf(kept);

        // WHEN an operator deletes both
        Lambda.Response deleted = api.deleteWorkspace(plain, null);
        Lambda.Response deletedHot = api.deleteWorkspace(hot, "\"1\"");

        // THEN each is accepted, and gone to every reader of the table at once: no read, write or create finds it
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(202);
        assertThat(deletedHot.status()).as(deletedHot.body()).isEqualTo(202);
        assertThat(deleted.json()).containsEntry("id", plain).containsEntry("status", "DELETING");
        assertThat(api.getWorkspace(plain).status()).isEqualTo(404);
        assertThat(api.collection(plain, Map.of()).status()).isEqualTo(404);
        assertThat(api.patchWorkspace(plain, "\"1\"", "{\"name\":\"Back\"}").status())
                .isEqualTo(404);
        assertThat(api.createProject(plain, "{\"name\":\"late\"}").status()).isEqualTo(404);
        assertThat(api.createProject(hot, "{\"name\":\"late\"}").status()).isEqualTo(404);
        assertThat(api.createWorkspace(plain, "Again").status())
                .as("the id stays taken until the purge is done")
                .isEqualTo(409);
        // AND the listing, read from the index, which trails the table (about a second on DynamoDB), leaves both out
        // once the index has caught up: the wait is on the listing's own answer
        Eventually.await(() -> Collections.disjoint(listedWorkspaces(api), List.of(plain, hot)), Eventually.FAILSAFE);
        assertThat(listedWorkspaces(api)).doesNotContain(plain, hot).contains(kept);

        // AND a second DELETE is answered as the first, and changes nothing
        Lambda.Response again = api.deleteWorkspace(plain, null);
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.json()).containsEntry("deletedAt", deleted.json().get("deletedAt"));

        // WHEN the purge tasks run (after the fence), until each workspace's purge has logged its end and no
        // delivery of a task is left, in the queue or running (a slow delivery comes again after its visibility
        // timeout of 1 s: two deliveries at once, whose deleted items both count)
        awaitSettled(plain, hot);

        // THEN both leave no item, in any partition or shard, and no entry in the index once it has caught up
        assertThat(itemsOf(plain)).isEmpty();
        assertThat(itemsOf(hot)).isEmpty();
        IndexTruth.awaitSettled(patient, table);
        assertThat(indexEntriesOf(plain)).isEmpty();
        assertThat(indexEntriesOf(hot)).isEmpty();
        // AND the workspace that stays is untouched
        assertThat(itemsOf(kept)).isEqualTo(keptBefore);
        // AND every delivery of the purge tasks (the second DELETE sent its own) succeeded, and between them they
        // deleted every item (two deliveries running at once may both delete a page)
        // (on a slower engine, two deliveries of the sharded tenant's task shared its items too: each counts its own)
        Map<String, Object> purged = line(plain, "purged");
        assertThat(deletedByEveryDelivery(plain)).isGreaterThanOrEqualTo(1 + 302 + 2);
        assertThat(deletedByEveryDelivery(hot)).isGreaterThanOrEqualTo(1 + 500);
        assertThat(line(hot, "purged")).containsEntry("ok", true);

        // WHEN the task is delivered again, and the workspace is deleted again
        int linesBefore = lines.size();
        sendTask(plain, purged.get("runId"));
        // THEN the redelivered task finds nothing to do, and the DELETE finds no workspace
        assertThat(awaitLine(linesBefore, plain)).containsEntry("state", "gone").containsEntry("deleted", 0);
        assertThat(api.deleteWorkspace(plain, null).status()).isEqualTo(404);
        // AND the id is free again; a stale task of the old purge does not touch the new workspace
        assertThat(api.createWorkspace(plain, "Again").status()).isEqualTo(201);
        int linesAfter = lines.size();
        sendTask(plain, purged.get("runId"));
        assertThat(awaitLine(linesAfter, plain)).containsEntry("state", "not this purge");
        assertThat(api.getWorkspace(plain).status()).isEqualTo(200);
    }

    @Test
    void fence_shouldKeepACreateThatReadTheWorkspaceBeforeTheDelete_fromLeavingAnOrphan() throws Exception {
        // GIVEN the deployed fence, on a clock that moves only when the test moves it, and a DELETE that sends its
        // task at once (as a redrive or a hand-sent task comes before its fence): only the worker's own check of the
        // fence stands between the sweep and a create that read the workspace live
        stop();
        start(Duration.ZERO, DEPLOYED_FENCE, clock);
        // AND a create held between its two calls: it read the workspace live, and has not written its project yet
        Race race = heldCreate("racing");
        String racing = race.workspace();

        // WHEN the workspace is deleted, and the worker takes its purge task
        clock.catchUp();
        assertThat(api.deleteWorkspace(racing, null).status()).isEqualTo(202);
        Map<String, Object> first = awaitLine(0, racing);

        // THEN it does not sweep: its fence has not passed, so it hands the task back to the queue to come later
        assertThat(first).containsEntry("state", "waiting").containsEntry("deleted", 0);
        assertThat(itemsOf(racing)).hasSize(1 + 3);

        // WHEN the create then writes its project, inside the fence (no time has passed on the clock)
        race.hold().release.countDown();
        Lambda.Response created = race.create().get(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS);
        // AND the fence passes, and the task comes again (as its continuation does)
        clock.advance(DEPLOYED_FENCE);
        sendTask(racing, first.get("runId"));
        awaitSettled(racing);

        // THEN the create succeeded (it started while the workspace was live), yet the purge, which swept only
        // after the fence, leaves nothing: no orphan project (the create's among the items it deleted)
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(itemsOf(racing)).isEmpty();
        assertThat(deletedByEveryDelivery(racing)).isGreaterThanOrEqualTo(1 + 3 + 1);
    }

    @Test
    void projectWrites_whileTheWorkspaceIsPurged_shouldBeAnsweredAsDocumented_andLeaveNothingAfterTheSweep()
            throws Exception {
        // GIVEN a workspace of 3 projects, deleted, its purge task held back by the deployed fence (on the test's
        // clock)
        stop();
        start(Duration.ZERO, DEPLOYED_FENCE, clock);
        String ws = Api.freshWorkspaceId("writes");
        fill(ws, 3);
        List<String> projects = api.listAllProjects(ws);
        clock.catchUp();
        assertThat(api.deleteWorkspace(ws, null).status()).isEqualTo(202);
        Map<String, Object> first = awaitLine(0, ws);
        assertThat(first).containsEntry("state", "waiting");

        // WHEN a tenant patches one of its projects and deletes another before the sweep
        Lambda.Response patched = api.patchProject(ws, projects.get(0), "\"1\"", "{\"name\":\"late\"}");
        Lambda.Response deleted = api.deleteProject(ws, projects.get(1), null);

        // THEN each is answered as docs/jobs.md says (one call on the project's own item, not refused), while the
        // workspace and a create in it are refused at once
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(deleted.status()).as(deleted.body()).isEqualTo(204);
        assertThat(api.getWorkspace(ws).status()).isEqualTo(404);
        assertThat(api.createProject(ws, "{\"name\":\"late\"}").status()).isEqualTo(404);

        // WHEN the fence passes and the purge sweeps
        clock.advance(DEPLOYED_FENCE);
        sendTask(ws, first.get("runId"));
        awaitSettled(ws);

        // THEN nothing of the workspace is left, the patched project included; and a write after the sweep finds
        // nothing (it never creates what the purge deleted)
        assertThat(itemsOf(ws)).isEmpty();
        assertThat(api.patchProject(ws, projects.get(0), "\"2\"", "{\"name\":\"later\"}")
                        .status())
                .isEqualTo(404);
        assertThat(api.deleteProject(ws, projects.get(2), null).status()).isEqualTo(404);
        assertThat(itemsOf(ws)).isEmpty();
        IndexTruth.awaitSettled(patient, table);
        assertThat(indexEntriesOf(ws)).isEmpty();
    }

    @Test
    void withoutTheFence_theSameRace_shouldLeaveAnOrphan() throws Exception {
        // GIVEN the same race, with a worker that sweeps at once (no fence): this is what the fence prevents
        stop();
        start(Duration.ZERO, Duration.ZERO, Clock.systemUTC());
        Race race = heldCreate("unfenced");
        String racing = race.workspace();

        // WHEN the workspace is deleted and purged before the held create writes
        assertThat(api.deleteWorkspace(racing, null).status()).isEqualTo(202);
        assertThat(awaitLine(0, racing)).containsEntry("state", "purged");
        race.hold().release.countDown();
        assertThat(race.create()
                        .get(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS)
                        .status())
                .isEqualTo(201);

        // THEN its project is an orphan: in the table, with no workspace
        List<Map<String, AttributeValue>> left = itemsOf(racing);
        assertThat(left).hasSize(1);
        assertThat(left.get(0).get("Detail").s()).startsWith("PROJ#");
    }

    /** Holds the PutItem of a project in {@code workspace} until released: the gap between a create's two calls. */
    private static final class Hold implements ExecutionInterceptor {
        final String partition;
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        Hold(String workspace) {
            this.partition = KeyCodec.workspacePartition(WorkspaceId.of(workspace));
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof PutItemRequest put
                    && partition.equals(put.item().get(KeyCodec.PARTITION_KEY).s())) {
                reached.countDown();
                try {
                    release.await(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** A workspace with 3 projects, and a create of a 4th held after it read the workspace, before its write. */
    private record Race(String workspace, Hold hold, CompletableFuture<Lambda.Response> create) {}

    private Race heldCreate(String prefix) throws InterruptedException {
        String workspace = Api.freshWorkspaceId(prefix);
        fill(workspace, 3);
        Hold hold = new Hold(workspace);
        CreateProjectFunction create = new CreateProjectFunction(
                engine.functionClient("CreateProject", table, List.of(hold)), Api.config("CreateProject", plan, table));
        CompletableFuture<Lambda.Response> created = CompletableFuture.supplyAsync(() -> Lambda.invoke(
                create,
                ApiEvent.of("POST", ApiEvent.PROJECTS)
                        .path("workspaceId", workspace)
                        .body("{\"name\":\"racing\"}")));
        assertThat(hold.reached.await(Eventually.FAILSAFE.toSeconds(), TimeUnit.SECONDS))
                .isTrue();
        return new Race(workspace, hold, created);
    }

    private void fill(String workspace, int projects) {
        assertThat(api.createWorkspace(workspace, "W").status()).isEqualTo(201);
        ControlPlaneStore store = new ControlPlaneStore(patient, engine.pool, table, plan);
        Ulid ids = Ulid.generator();
        for (int p = 0; p < projects; p++) {
            ProjectId id = ids.next();
            store.createProject(
                    WorkspaceId.of(workspace),
                    id,
                    new NewProject("p" + p, null, ProjectStatus.values()[p % 3]),
                    Instant.now(),
                    CreationToken.random(),
                    new CallTally());
        }
    }

    /** Every item of a workspace's collection: its partition and its shards (a test may Scan; the product never). */
    private List<Map<String, AttributeValue>> itemsOf(String workspace) {
        String partition = KeyCodec.workspacePartition(WorkspaceId.of(workspace));
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        scan(null).forEach(item -> {
            String ref = item.get(KeyCodec.PARTITION_KEY).s();
            if (ref.equals(partition) || ref.startsWith(partition + "#")) {
                items.add(item);
            }
        });
        return items;
    }

    /** Every entry of the cross-workspace index that belongs to the workspace: its registry entry, its projects'. */
    private List<Map<String, AttributeValue>> indexEntriesOf(String workspace) {
        String partition = KeyCodec.workspacePartition(WorkspaceId.of(workspace));
        List<Map<String, AttributeValue>> entries = new ArrayList<>();
        scan("GSI1").forEach(item -> {
            String ref = item.get(KeyCodec.PARTITION_KEY).s();
            if (ref.equals(partition) || ref.startsWith(partition + "#")) {
                entries.add(item);
            }
        });
        return entries;
    }

    private List<Map<String, AttributeValue>> scan(String index) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            var page = patient.scan(ScanRequest.builder()
                    .tableName(table)
                    .indexName(index)
                    .consistentRead(index == null ? Boolean.TRUE : null)
                    .exclusiveStartKey(start)
                    .build());
            items.addAll(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return items;
    }

    /**
     * The items the purge tasks of {@code workspace} deleted, summed over every delivery, each of which succeeded:
     * deliveries running at once share the work (and may both delete a page).
     */
    private int deletedByEveryDelivery(String workspace) {
        synchronized (lines) {
            List<Map<String, Object>> deliveries = lines.stream()
                    .filter(l -> workspace.equals(l.get("workspaceId")))
                    .toList();
            assertThat(deliveries).allSatisfy(l -> assertThat(l).containsEntry("ok", true));
            System.out.println("purged " + workspace + ": " + deliveries);
            return deliveries.stream().mapToInt(l -> (Integer) l.get("deleted")).sum();
        }
    }

    /**
     * The first log line about {@code workspace} from the {@code from}-th on, once the worker has logged it: a task's
     * line is the event a test waits for (never a time).
     */
    private Map<String, Object> awaitLine(int from, String workspace) throws InterruptedException {
        Eventually.await(() -> lineFrom(from, workspace).isPresent(), Eventually.FAILSAFE);
        return lineFrom(from, workspace)
                .orElseThrow(() -> new AssertionError("no line about " + workspace + " from " + from + ": " + lines));
    }

    private Optional<Map<String, Object>> lineFrom(int from, String workspace) {
        synchronized (lines) {
            return lines.subList(Math.min(from, lines.size()), lines.size()).stream()
                    .filter(l -> workspace.equals(l.get("workspaceId")))
                    .findFirst();
        }
    }

    /**
     * Waits until each workspace's purge has logged its end ({@code purged}) and no delivery of a task is left: none
     * in the queue to receive or in flight, and none running in the worker. A delivery that starts after the end (a
     * continuation still delayed, say) finds the workspace gone and deletes nothing.
     */
    private void awaitSettled(String... workspaces) throws InterruptedException {
        Eventually.await(
                () -> Arrays.stream(workspaces).allMatch(ws -> hasLine(ws, "purged"))
                        && JobFunctions.depth(queues, "JobQueue") == 0
                        && running.get() == 0,
                Eventually.FAILSAFE);
        for (String ws : workspaces) {
            assertThat(hasLine(ws, "purged"))
                    .as("the purge of %s ended: %s", ws, lines)
                    .isTrue();
        }
        assertThat(JobFunctions.depth(queues, "JobQueue"))
                .as("tasks left in the queue")
                .isZero();
        assertThat(running.get()).as("deliveries still running").isZero();
    }

    private boolean hasLine(String workspace, String state) {
        synchronized (lines) {
            return lines.stream().anyMatch(l -> workspace.equals(l.get("workspaceId")) && state.equals(l.get("state")));
        }
    }

    private static Duration deployedFence() {
        Map<String, Object> variables = SamTemplate.map(SamTemplate.map(
                        SamTemplate.map(SamTemplate.load(TestEngine.get().root.resolve("template.yaml"))
                                        .resources()
                                        .get("RunJob")
                                        .get("Properties"))
                                .get("Environment"))
                .get("Variables"));
        return Duration.ofSeconds(Long.parseLong(String.valueOf(variables.get("PURGE_FENCE_SECONDS"))));
    }

    private Map<String, Object> line(String workspace, String state) {
        synchronized (lines) {
            return lines.stream()
                    .filter(l -> workspace.equals(l.get("workspaceId")) && state.equals(l.get("state")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + state + " line for " + workspace + ": " + lines));
        }
    }

    /** Sends the purge task of {@code workspace}'s run again, as a redelivery or its continuation comes. */
    private void sendTask(String workspace, Object runId) {
        queues.client()
                .sendMessage(SendMessageRequest.builder()
                        .queueUrl(queues.url("JobQueue"))
                        .messageBody(Json.task(workspace, runId))
                        .build());
    }

    /** The body of a purge task, as DeleteWorkspace sends it. */
    private static final class Json {
        static String task(String workspace, Object runId) {
            return new JobTask(JobTask.PURGE, WorkspaceId.of(workspace), String.valueOf(runId)).toJson();
        }
    }

    /** Every workspace GET /workspaces lists, an operator's pages followed to the end. */
    private static List<String> listedWorkspaces(Api api) {
        return Pages.ids(
                Pages.follow(
                        Map.of("limit", "100"),
                        query -> api.call(
                                "ListWorkspaces",
                                ApiEvent.of("GET", ApiEvent.WORKSPACES)
                                        .query(query)
                                        .claims(Map.of(
                                                "sub", "op", "workspaces", "", "scope", "openid oneread/admin")))),
                "items");
    }
}
