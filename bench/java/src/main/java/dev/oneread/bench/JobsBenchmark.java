package dev.oneread.bench;

import dev.oneread.functions.planjobs.PlanJobsFunction;
import dev.oneread.functions.runjob.RunJobFunction;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.runner.QueuePoller;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Workspace;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.CreateWorkspaceOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.BulkLoad;
import dev.oneread.tests.support.JobFunctions;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * On-demand benchmark (not a test): a whole stats run over 2,000 workspaces on the embedded ElasticMQ and the local
 * engine, at 1, 5 and 10 workers at once (the event source mapping's MaximumConcurrency), side by side in one run;
 * plus what planning costs: SendMessageBatch calls and index queries.
 *
 * <p>Run: {@code bash bench/jobs.sh}.
 */
public final class JobsBenchmark {
    private static final int WORKSPACES = 2_000;

    public static void main(String[] args) throws Exception {
        TestEngine engine = TestEngine.get();
        String table = "jobs-bench-" + UUID.randomUUID().toString().substring(0, 8);
        ShardPlan plan = ShardPlan.none();
        new Api(plan, table); // creates the table from template.yaml
        load(engine, table, plan);
        SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));
        try (LocalQueues queues = LocalQueues.start(template, table, Duration.ofSeconds(30))) {
            String queue = queues.url("JobQueue");
            PlanJobsFunction planner = JobFunctions.planner(engine, queues, plan, table);
            RunJobFunction worker = JobFunctions.worker(engine.client, queues, plan, table);
            System.out.printf(
                    "machine: %d cores, java %s; %d workspaces; embedded ElasticMQ and dynalite%n",
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), WORKSPACES);
            List<String> results = new ArrayList<>();
            double first = 0;
            for (int concurrency : new int[] {1, 5, 10}) {
                List<Map<String, Object>> lines = Collections.synchronizedList(new ArrayList<>());
                long start = System.nanoTime();
                Map<String, Object> plannedRun =
                        Lambda.invokeJob(planner, Map.of("job", "stats")).output();
                double planned = (System.nanoTime() - start) / 1e9;
                try (QueuePoller poller = QueuePoller.start(
                        queues.client(),
                        queue,
                        queues.arn("JobQueue"),
                        10,
                        concurrency,
                        event -> JobFunctions.invoke(worker, event, lines),
                        new PrintStream(new ByteArrayOutputStream()))) {
                    while (JobFunctions.applied(lines) < WORKSPACES) {
                        Thread.sleep(50);
                    }
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                first = first == 0 ? seconds : first;
                results.add(String.format(
                        "MaximumConcurrency %2d: whole run %6.1f s (planning %.1f s: %s SendMessageBatch calls, %s"
                                + " index queries), %.2fx the time at 1",
                        concurrency,
                        seconds,
                        planned,
                        plannedRun.get("sendMessageBatchCalls"),
                        plannedRun.get("calls"),
                        seconds / first));
            }
            results.forEach(System.out::println);
        }
        System.exit(0);
    }

    /** 2,000 workspaces with 3 projects each, written with BatchWriteItem as the store would write them. */
    private static void load(TestEngine engine, String table, ShardPlan plan) {
        OperationContext requests = OperationContext.of(table, plan);
        dev.oneread.keys.Ulid ids = dev.oneread.keys.Ulid.generator();
        Instant now = Instant.now();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int w = 0; w < WORKSPACES; w++) {
            WorkspaceId ws = WorkspaceId.of(String.format("bench-%04d", w));
            items.add(CreateWorkspaceOperation.generateRequest(
                            requests, new Workspace(ws, "W", Map.of(), now, now, 1), CreationToken.random())
                    .item());
            for (int p = 0; p < 3; p++) {
                items.add(CreateProjectOperation.generateRequest(
                                requests,
                                new dev.oneread.model.Project(
                                        ids.next(), ws, "p", null, dev.oneread.model.ProjectStatus.ACTIVE, now, now, 1),
                                CreationToken.random())
                        .item());
            }
        }
        BulkLoad.putAll(engine.client, table, items);
    }
}
