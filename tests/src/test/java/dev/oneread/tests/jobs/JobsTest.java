package dev.oneread.tests.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.functions.planjobs.PlanJobsFunction;
import dev.oneread.functions.runjob.RunJobFunction;
import dev.oneread.jobs.JobPlanner;
import dev.oneread.jobs.JobTask;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.runner.QueuePoller;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.model.CreationToken;
import dev.oneread.model.NewProject;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.IndexTruth;
import dev.oneread.tests.support.JobFunctions;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * A stats run end to end on a real SQS-compatible queue (ElasticMQ, embedded): the planner enumerates 200
 * workspaces (5 of them hot tenants) through the index's registry and sends one task each; the event source mapping
 * delivers them in batches to the worker, which reports partial failures. Three tasks fail once (a fault injected
 * into their first DynamoDB call), and a poison message fails every time.
 */
public class JobsTest {
    private static final int WORKSPACES = 200;
    private static final int HOT = 5;
    private static final int SHARDS = 4;
    /** One task per workspace, and one per shard of a hot tenant. */
    private static final int TASKS = WORKSPACES - HOT + HOT * SHARDS;

    private final TestEngine engine = TestEngine.get();
    private final String table = "jobs-" + UUID.randomUUID().toString().substring(0, 8);
    private final Random random = new Random(12);

    @Test
    void statsRun_withFaultsAndAPoisonTask_shouldCountEveryWorkspaceOnce_andDeadLetterThePoison() throws Exception {
        // GIVEN 200 workspaces, 5 of them hot tenants of 4 shards, with projects of random statuses
        List<String> workspaces = new ArrayList<>();
        StringBuilder hot = new StringBuilder();
        for (int w = 0; w < WORKSPACES; w++) {
            String ws = String.format("job-%03d", w);
            workspaces.add(ws);
            if (w < HOT) {
                hot.append(hot.length() == 0 ? "" : ",").append(ws).append("=").append(SHARDS);
            }
        }
        ShardPlan plan = ShardPlan.parse(hot.toString(), "");
        Api api = new Api(plan, table);
        ControlPlaneStore store = new ControlPlaneStore(engine.client, engine.pool, table, plan);
        Ulid ids = Ulid.generator();
        for (String ws : workspaces) {
            assertThat(api.createWorkspace(ws, "W " + ws).status()).isEqualTo(201);
            int projects = ws.compareTo(String.format("job-%03d", HOT)) < 0 ? 30 : random.nextInt(6);
            for (int p = 0; p < projects; p++) {
                ProjectId id = ids.next();
                store.createProject(
                        WorkspaceId.of(ws),
                        id,
                        new NewProject("p" + p, null, ProjectStatus.values()[random.nextInt(3)]),
                        Instant.now(),
                        CreationToken.random(),
                        new CallTally());
            }
        }
        // AND the index's registry caught up with them (it trails the table, as DynamoDB's does), so that one pass
        // lists every workspace and the figures below are exact
        IndexTruth.awaitSettled(engine.client, table);
        // AND the template's queues on ElasticMQ, with a 1 s visibility timeout so redeliveries come quickly
        SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));
        try (LocalQueues queues = LocalQueues.start(template, table, Duration.ofSeconds(1))) {
            String queue = queues.url("JobQueue");
            // WHEN the planner runs once
            PlanJobsFunction planner = JobFunctions.planner(engine, queues, plan, table);
            Map<String, Object> planned =
                    Lambda.invokeJob(planner, Map.of("job", "stats")).output();
            // THEN it sent exactly one task per workspace and one per shard of a hot tenant, 10 to a SendMessageBatch
            assertThat(planned)
                    .containsEntry("tasks", TASKS)
                    .containsEntry("sendMessageBatchCalls", (TASKS + 9) / 10)
                    .containsEntry("done", true);
            // AND a poison message that is no task
            queues.client()
                    .sendMessage(SendMessageRequest.builder()
                            .queueUrl(queue)
                            .messageBody("{\"job\":\"stats\",\"workspaceId\":\"Not A Slug\"}")
                            .build());
            // WHEN workers take the tasks, three of which fail on their first DynamoDB call
            Set<String> flaky = Set.of("job-010", "job-100", "job-150");
            Map<String, Integer> injected = new ConcurrentHashMap<>();
            RunJobFunction worker = JobFunctions.worker(
                    engine.functionClient("RunJob", table, List.of(new FailFirstQuery(flaky, injected))),
                    queues,
                    plan,
                    table);
            List<Map<String, Object>> lines = Collections.synchronizedList(new ArrayList<>());
            try (QueuePoller poller = workers(queues, worker, lines)) {
                Eventually.await(
                        () -> JobFunctions.applied(lines) >= TASKS
                                && JobFunctions.depth(queues, "JobDeadLetterQueue") >= 1,
                        Eventually.FAILSAFE);
            }
            // THEN every task's counts were written once, and every workspace's equal a brute-force count
            assertThat(JobFunctions.applied(lines)).isEqualTo(TASKS);
            Map<String, Map<String, Integer>> truth = bruteForce();
            for (String ws : workspaces) {
                Map<String, AttributeValue> item = engine.client
                        .getItem(GetItemRequest.builder()
                                .tableName(table)
                                .key(Map.of(
                                        "EntityRef", AttributeValue.fromS("WS#" + ws),
                                        "Detail", AttributeValue.fromS("META")))
                                .consistentRead(true)
                                .build())
                        .item();
                Map<String, Integer> expected = truth.getOrDefault(ws, Map.of());
                @SuppressWarnings("unchecked")
                Map<String, Object> stats =
                        (Map<String, Object>) api.getWorkspace(ws).json().get("stats");
                for (ProjectStatus status : ProjectStatus.values()) {
                    assertThat(stats.get(status.name()))
                            .as(ws + " " + status)
                            .isEqualTo(expected.getOrDefault(status.name(), 0));
                }
                if (plan.isSharded(WorkspaceId.of(ws))) {
                    // one part per shard, each written by its own task of this run
                    Map<String, AttributeValue> parts = item.get("stats").m();
                    assertThat(parts).hasSize(SHARDS);
                    parts.values()
                            .forEach(part -> assertThat(part.m().get("run").s()).isEqualTo(planned.get("runId")));
                } else {
                    assertThat(item.get("statsRun").s()).isEqualTo(planned.get("runId"));
                }
                assertThat(item.get("version").n())
                        .as("a job does not bump the ETag")
                        .isEqualTo("1");
            }
            // AND GetWorkspace returns the counts
            Map<String, Object> acme = api.getWorkspace("job-000").json();
            assertThat(acme).containsKey("stats").containsEntry("version", 1);
            // AND the three flaky tasks failed once each and then succeeded, and no batch-mate ran twice
            Map<String, Integer> okPerWorkspace = new HashMap<>();
            Map<String, Integer> failedPerWorkspace = new HashMap<>();
            synchronized (lines) {
                for (Map<String, Object> line : lines) {
                    String ws = String.valueOf(line.get("workspaceId"));
                    (Boolean.TRUE.equals(line.get("ok")) ? okPerWorkspace : failedPerWorkspace)
                            .merge(ws, 1, Integer::sum);
                }
            }
            assertThat(injected).containsOnlyKeys(flaky);
            for (String ws : workspaces) {
                assertThat(okPerWorkspace.get(ws)).as(ws).isEqualTo(plan.isSharded(WorkspaceId.of(ws)) ? SHARDS : 1);
                assertThat(failedPerWorkspace.getOrDefault(ws, 0)).as(ws).isEqualTo(flaky.contains(ws) ? 1 : 0);
            }
            // AND the poison task failed on each of its 5 receives, then went to the dead-letter queue
            assertThat(failedPerWorkspace.get("null")).isEqualTo(5);
            assertThat(JobFunctions.depth(queues, "JobDeadLetterQueue")).isEqualTo(1);
            assertThat(JobFunctions.depth(queues, "JobQueue")).isZero();
            System.out.println("stats run: " + planned + "; worker lines " + lines.size() + "; injected " + injected);
        }
    }

    @Test
    void planner_shouldContinueOnThePlanQueue_whenItsTimeRunsOut_andSendEveryTaskOnce() throws Exception {
        // GIVEN 250 workspaces: three registry pages of 100
        String prefix = "cont-" + UUID.randomUUID().toString().substring(0, 4);
        Api api = new Api(ShardPlan.none(), table);
        for (int w = 0; w < 250; w++) {
            assertThat(api.createWorkspace(String.format("%s-%03d", prefix, w), "W")
                            .status())
                    .isEqualTo(201);
        }
        // AND the index's registry caught up with them, so that the pages below hold 100, 100 and 50
        IndexTruth.awaitSettled(engine.client, table);
        SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));
        try (LocalQueues queues = LocalQueues.start(template, table, Duration.ofSeconds(30))) {
            PlanJobsFunction planner = JobFunctions.planner(engine, queues, ShardPlan.none(), table);
            // WHEN the scheduled run has 4 s left, less than a page needs: it sends one page, then stops
            Map<String, Object> first =
                    Lambda.invokeJob(planner, Map.of("job", "stats"), 4_000).output();
            assertThat(first)
                    .containsEntry("tasks", 100)
                    .containsEntry("done", false)
                    .containsEntry("continued", true);
            // AND the plan queue's event source mapping invokes it again with its continuation, then with the run's
            // recheck, 2 s after its pass is done
            List<Map<String, Object>> planLines = planQueueRuns(queues, planner);
            // THEN the same run went on where it stopped
            assertThat(planLines)
                    .anySatisfy(l -> assertThat(l)
                            .containsEntry("runId", first.get("runId"))
                            .containsEntry("tasks", 150)
                            .containsEntry("done", true)
                            .containsEntry("recheckSent", true));
            // AND its recheck gave its task again to every workspace created within the recheck's window of the
            // run's start (any of them could have been missing from the index when the pass read it), and only them
            Instant since = JobPlanner.recheckSince(Ulid.timeOf(String.valueOf(first.get("runId"))));
            Set<String> recent = new java.util.HashSet<>();
            for (int w = 0; w < 250; w++) {
                String ws = String.format("%s-%03d", prefix, w);
                if (!Instant.parse(String.valueOf(api.getWorkspace(ws).json().get("createdAt")))
                        .isBefore(since)) {
                    recent.add(ws);
                }
            }
            assertThat(planLines)
                    .anySatisfy(l -> assertThat(l)
                            .containsEntry("runId", first.get("runId"))
                            .containsEntry("recheck", true)
                            .containsEntry("tasks", recent.size())
                            .containsEntry("done", true));
            // AND the pass gave every workspace exactly one task, and the recheck one more to each recent one
            Map<String, Long> tasks = taskedWorkspaces(queues).stream()
                    .collect(java.util.stream.Collectors.groupingBy(ws -> ws, java.util.stream.Collectors.counting()));
            assertThat(tasks)
                    .hasSize(250)
                    .allSatisfy((ws, count) -> assertThat(count).as(ws).isEqualTo(recent.contains(ws) ? 2L : 1L));
        }
    }

    // Issue 38: the registry is an index, which DynamoDB updates within about a second of the write; a run that
    // started just after a workspace's creation listed the registry without it, and the workspace had no stats
    // until the next run (an hour later by default), its quota unchecked for two intervals.
    @Test
    void planner_shouldGiveItsTaskToAWorkspaceCreatedJustBeforeTheRun_byItsRecheck() throws Exception {
        // GIVEN 10 workspaces the index lists
        String prefix = "late-" + UUID.randomUUID().toString().substring(0, 4);
        Api api = new Api(ShardPlan.none(), table);
        List<String> workspaces = new ArrayList<>();
        for (int w = 0; w < 10; w++) {
            workspaces.add(String.format("%s-%03d", prefix, w));
            assertThat(api.createWorkspace(workspaces.get(w), "W").status()).isEqualTo(201);
        }
        IndexTruth.awaitSettled(engine.client, table);
        SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));
        try (LocalQueues queues = LocalQueues.start(template, table, Duration.ofSeconds(30))) {
            PlanJobsFunction planner = JobFunctions.planner(engine, queues, ShardPlan.none(), table);
            // AND one created just now, which the index may not show yet (it trails the table by the engine's lag)
            String late = prefix + "-late";
            workspaces.add(late);
            assertThat(api.createWorkspace(late, "Late").status()).isEqualTo(201);
            // WHEN the scheduled run plans at once
            Map<String, Object> pass =
                    Lambda.invokeJob(planner, Map.of("job", "stats")).output();
            // THEN its pass is done and it sent its recheck to the plan queue
            assertThat(pass).containsEntry("done", true).containsEntry("recheckSent", true);
            // WHEN the plan queue's event source mapping runs the recheck, 2 s later
            List<Map<String, Object>> planLines = planQueueRuns(queues, planner);
            // THEN every workspace has a task of the run, the late one included
            assertThat(planLines)
                    .anySatisfy(l -> assertThat(l)
                            .containsEntry("runId", pass.get("runId"))
                            .containsEntry("recheck", true)
                            .containsEntry("done", true));
            assertThat(taskedWorkspaces(queues)).containsAll(workspaces);
            System.out.println("planner under " + TestEngine.lag() + ": pass " + pass.get("tasks") + " tasks, recheck "
                    + planLines);
        }
    }

    /** The plan queue's mapping, run until the run's recheck has logged its end: each invocation's log line. */
    private static List<Map<String, Object>> planQueueRuns(LocalQueues queues, PlanJobsFunction planner)
            throws InterruptedException {
        List<Map<String, Object>> planLines = Collections.synchronizedList(new ArrayList<>());
        try (QueuePoller continuing = QueuePoller.start(
                queues.client(),
                queues.url("PlanQueue"),
                queues.arn("PlanQueue"),
                1,
                1,
                event -> JobFunctions.invoke(planner, event, planLines),
                new PrintStream(new ByteArrayOutputStream()))) {
            Eventually.await(
                    () -> planLines.stream()
                            .anyMatch(l -> Boolean.TRUE.equals(l.get("recheck")) && Boolean.TRUE.equals(l.get("done"))),
                    Eventually.FAILSAFE);
        }
        return planLines;
    }

    /** The workspace of every task on the job queue, received until it is empty. */
    private static List<String> taskedWorkspaces(LocalQueues queues) {
        List<String> tasked = new ArrayList<>();
        while (true) {
            List<software.amazon.awssdk.services.sqs.model.Message> messages = queues.client()
                    .receiveMessage(r -> r.queueUrl(queues.url("JobQueue"))
                            .maxNumberOfMessages(10)
                            .waitTimeSeconds(1))
                    .messages();
            if (messages.isEmpty()) {
                return tasked;
            }
            messages.forEach(
                    m -> tasked.add(String.valueOf(Json.readObject(m.body()).get("workspaceId"))));
        }
    }

    // Guards issue 22, finding 5: a forged task with a shard outside the plan, or a run id from the future, was
    // applied; the future one froze the stats (later real runs were refused as older) and with them the quota.
    @Test
    void forgedTasks_shouldFailAsBatchItems_andChangeNothing_whenTheirShardOrRunIsNotOneThePlannerSends()
            throws Exception {
        // GIVEN a plain workspace and a hot tenant of 2 shards, with a project each
        String plain = "forge-plain";
        String hot = "forge-hot";
        ShardPlan plan = ShardPlan.parse(hot + "=2", "");
        Api api = new Api(plan, table);
        for (String ws : List.of(plain, hot)) {
            assertThat(api.createWorkspace(ws, "W " + ws).status()).isEqualTo(201);
            assertThat(api.createProject(ws, "{\"name\":\"p\"}").status()).isEqualTo(201);
        }
        String now = Ulid.generator().next().value();
        // a run id a day ahead: far past any clock skew the worker allows
        String future = Ulid.withClock(Clock.fixed(Instant.now().plus(Duration.ofDays(1)), ZoneOffset.UTC))
                .next()
                .value();
        List<JobTask> forged = List.of(
                new JobTask(JobTask.STATS, WorkspaceId.of(plain), 1, now), // a shard of an unsharded tenant
                new JobTask(JobTask.STATS, WorkspaceId.of(hot), 0, now), // the planner sends its shards, not 0
                new JobTask(JobTask.STATS, WorkspaceId.of(hot), 3, now), // a shard past its plan's 2
                new JobTask(JobTask.PURGE, WorkspaceId.of(hot), 1, now), // a purge is of the whole workspace
                new JobTask(JobTask.STATS, WorkspaceId.of(plain), future),
                new JobTask(JobTask.PURGE, WorkspaceId.of(plain), future));
        Set<String> partitions = Set.of(
                KeyCodec.workspacePartition(WorkspaceId.of(plain)),
                KeyCodec.workspacePartition(WorkspaceId.of(hot)),
                KeyCodec.shardPartition(WorkspaceId.of(hot), 1),
                KeyCodec.shardPartition(WorkspaceId.of(hot), 2));
        Map<String, List<Map<String, AttributeValue>>> before = snapshot(partitions);
        SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));
        try (LocalQueues queues = LocalQueues.start(template, table, Duration.ofSeconds(1))) {
            String queue = queues.url("JobQueue");
            RunJobFunction worker = JobFunctions.worker(engine.functionClient("RunJob", table), queues, plan, table);
            List<Map<String, Object>> lines = Collections.synchronizedList(new ArrayList<>());
            try (QueuePoller poller = workers(queues, worker, lines)) {
                // WHEN the forged tasks come through the job queue
                for (JobTask task : forged) {
                    queues.client().sendMessage(r -> r.queueUrl(queue).messageBody(task.toJson()));
                }
                Eventually.await(
                        () -> JobFunctions.depth(queues, "JobDeadLetterQueue") >= forged.size(), Eventually.FAILSAFE);
                // THEN each failed as a batch item on every receive, saying why, and went to the dead-letter queue
                synchronized (lines) {
                    assertThat(lines)
                            .isNotEmpty()
                            .allSatisfy(line -> assertThat(line)
                                    .as(line.toString())
                                    .containsEntry("ok", false)
                                    .containsEntry("error", "RefusedTaskException")
                                    .hasEntrySatisfying(
                                            "reason",
                                            reason -> assertThat((String) reason)
                                                    .containsAnyOf("not a shard", "in the future")));
                }
                assertThat(JobFunctions.depth(queues, "JobDeadLetterQueue")).isEqualTo(forged.size());
                // AND the table is as it was
                assertThat(snapshot(partitions)).isEqualTo(before);

                // WHEN a real run follows
                lines.clear();
                Map<String, Object> planned = Lambda.invokeJob(
                                JobFunctions.planner(engine, queues, plan, table), Map.of("job", "stats"))
                        .output();
                assertThat(planned).containsEntry("tasks", 3);
                Eventually.await(() -> JobFunctions.applied(lines) >= 3, Eventually.FAILSAFE);
            }
            // THEN it is applied: nothing froze the stats
            assertThat(JobFunctions.applied(lines)).as(lines.toString()).isEqualTo(3);
            for (String ws : List.of(plain, hot)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> stats =
                        (Map<String, Object>) api.getWorkspace(ws).json().get("stats");
                assertThat(stats).as(ws).containsEntry("total", 1);
            }
        }
    }

    private Map<String, List<Map<String, AttributeValue>>> snapshot(Set<String> partitions) {
        Map<String, List<Map<String, AttributeValue>>> out = new java.util.TreeMap<>();
        for (String partition : partitions) {
            out.put(
                    partition,
                    engine
                            .client
                            .queryPaginator(q -> q.tableName(table)
                                    .consistentRead(true)
                                    .keyConditionExpression("EntityRef = :pk")
                                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(partition))))
                            .items()
                            .stream()
                            .toList());
        }
        return out;
    }

    /** The job queue's event source mapping: batches of 10, two at once; the worker's log lines go to {@code lines}. */
    private static QueuePoller workers(LocalQueues queues, RunJobFunction worker, List<Map<String, Object>> lines) {
        return QueuePoller.start(
                queues.client(),
                queues.url("JobQueue"),
                queues.arn("JobQueue"),
                10,
                2,
                event -> JobFunctions.invoke(worker, event, lines),
                new PrintStream(new ByteArrayOutputStream()));
    }

    /** Workspace id to status to count, by a Scan of the whole table (the test may scan; the product never does). */
    private Map<String, Map<String, Integer>> bruteForce() {
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        Map<String, AttributeValue> start = null;
        do {
            var page = engine.client.scan(ScanRequest.builder()
                    .tableName(table)
                    .consistentRead(true)
                    .exclusiveStartKey(start)
                    .build());
            for (Map<String, AttributeValue> item : page.items()) {
                if (item.get("Detail").s().startsWith("PROJ#")) {
                    String ws = KeyCodec.decodePartition(item.get("EntityRef").s())
                            .workspaceId()
                            .value();
                    counts.computeIfAbsent(ws, k -> new HashMap<>())
                            .merge(item.get("status").s(), 1, Integer::sum);
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return counts;
    }

    /** Fails the first Query of each chosen workspace's partitions, as a DynamoDB 500 would. */
    private record FailFirstQuery(Set<String> workspaces, Map<String, Integer> injected)
            implements ExecutionInterceptor {
        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof QueryRequest query && query.hasExpressionAttributeValues()) {
                for (AttributeValue value : query.expressionAttributeValues().values()) {
                    if (value.s() == null || !value.s().startsWith("WS#")) {
                        continue;
                    }
                    String ws =
                            KeyCodec.decodePartition(value.s()).workspaceId().value();
                    if (workspaces.contains(ws) && injected.putIfAbsent(ws, 1) == null) {
                        throw DynamoDbException.builder()
                                .statusCode(500)
                                .message("injected failure for " + ws)
                                .build();
                    }
                }
            }
        }
    }
}
