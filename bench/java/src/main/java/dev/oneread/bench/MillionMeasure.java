package dev.oneread.bench;

import dev.oneread.functions.migratehottenant.MigrateHotTenantFunction;
import dev.oneread.jobs.JobTask;
import dev.oneread.jobs.TaskQueue;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.runner.QueuePoller;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.model.PartitionCapacity;
import dev.oneread.store.calls.JobPace;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.RunJobMapping;
import dev.oneread.tests.support.TestContext;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The measure phase of {@link MillionBenchmark}: on the loaded data, at DynamoDB's own limits (scale 1), with the
 * template's default job share, each operation's time and DynamoDB calls. The stats task runs as RunJob does
 * (60 s invocations, continuations through the queue); the migration and the purge run on the smaller tenant
 * {@link #SAMPLE}, and, with a share given, on the million itself (migrated, then purged from its shards); without
 * one, their figures for a million are extrapolated from the sample (both are linear in the items: each item is
 * one paced write of the same kind), and printed as such.
 */
final class MillionMeasure {
    /** The smaller tenant the migration and the purge are measured on, loaded by {@code load <dir> <n> sample}. */
    static final WorkspaceId SAMPLE = WorkspaceId.of("sample");
    /** RunJob's timeout in template.yaml. */
    private static final int RUN_JOB_MILLIS = 60_000;
    /** MigrateHotTenant's timeout in template.yaml. */
    private static final int MIGRATE_MILLIS = 900_000;
    /** List pages timed: the first and the ones after it, through their cursors. */
    private static final int PAGES = 20;

    private static final Map<String, Object> OPERATOR =
            Map.of("sub", "op", "workspaces", "", "scope", "openid oneread/admin");

    private MillionMeasure() {}

    /** The table's rows, each also printed as it is measured: a run of hours shows what it has so far. */
    private static final class Rows extends ArrayList<Row> {
        @Override
        public boolean add(Row row) {
            System.out.println("measured: " + row);
            System.out.flush();
            return super.add(row);
        }
    }

    /** One row of the table: what, how long, how many DynamoDB calls, and a note. */
    private record Row(String operation, double seconds, long calls, String note) {
        @Override
        public String toString() {
            return String.format("| %-44s | %12.3f s | %10d | %s |", operation, seconds, calls, note);
        }
    }

    static void run(Path dataDir, long projects, JobPace.Share wholeShare) throws IOException {
        TestEngine engine = TestEngine.onData(dataDir, PartitionLimits.DYNAMODB);
        String tenant = MillionBenchmark.TENANT.value();
        List<Row> rows = new Rows();
        Api api = new Api(engine, ShardPlan.none(), MillionBenchmark.TABLE);

        // A list page (100 projects), PAGES times through the cursors: the mean.
        long start = System.nanoTime();
        long calls = 0;
        Map<String, String> query = new HashMap<>(Map.of("limit", "100"));
        for (int i = 0; i < PAGES; i++) {
            Lambda.Response page = api.listProjects(tenant, query);
            check(page);
            calls += page.dynamoCalls();
            query.put("cursor", page.nextCursor());
        }
        rows.add(new Row(
                "ListProjects page of 100 (mean of " + PAGES + ")",
                seconds(start) / PAGES,
                calls / PAGES,
                "one Query"));

        start = System.nanoTime();
        Lambda.Response collection = api.collection(tenant, Map.of("limit", "100"));
        check(collection);
        rows.add(new Row("collection page (workspace and 100 projects)", seconds(start), collection.dynamoCalls(), ""));

        // The stats task, as RunJob runs it: 60 s invocations, continuing through the queue.
        List<Map<String, Object>> lines = Collections.synchronizedList(new ArrayList<>());
        try (LocalQueues queues = LocalQueues.start(
                SamTemplate.load(engine.root.resolve("template.yaml")), "million", Duration.ofSeconds(90))) {
            JobPace.Share share = JobPace.Share.of(JobPace.Share.DEFAULT_FRACTION);
            RunJobMapping worker =
                    new RunJobMapping(engine, MillionBenchmark.TABLE, ShardPlan.none(), share, RUN_JOB_MILLIS);
            CountDownLatch counted = new CountDownLatch(1);
            start = System.nanoTime();
            try (QueuePoller poller = worker.start(
                    queues,
                    lines,
                    line -> "stats".equals(line.get("task")) && line.get("state") == null,
                    counted,
                    true)) {
                new TaskQueue(queues.client(), queues.url("JobQueue"))
                        .send(List.of(new JobTask(
                                JobTask.STATS,
                                MillionBenchmark.TENANT,
                                Ulid.generator().next().value())));
                await(counted);
            }
            double statsSeconds = seconds(start);
            List<Map<String, Object>> stats = of(lines, "stats");
            long continuations = stats.stream()
                    .filter(l -> "continues".equals(l.get("state")))
                    .count();
            Map<String, Object> last = stats.get(stats.size() - 1);
            rows.add(new Row(
                    "stats task (" + stats.size() + " invocations of 60 s)",
                    statsSeconds,
                    sum(stats, "calls"),
                    continuations + " continuations, " + sum(stats, "pages") + " pages, counts " + last.get("counts")
                            + ", applied " + last.get("applied")));

            start = System.nanoTime();
            Lambda.Response report = api.call(
                    "GetHotTenantReport",
                    ApiEvent.of("GET", "/reports/hot-tenants")
                            .query(Map.of("limit", "100"))
                            .claims(OPERATOR));
            check(report);
            rows.add(new Row(
                    "hot-tenant report (its entry)",
                    seconds(start),
                    report.dynamoCalls(),
                    String.valueOf(report.json().get("items"))));

            // The migration and the purge at the template's default share, on SAMPLE.
            long sample = MillionBenchmark.loaded(dataDir, SAMPLE);
            Timed migration = migrate(engine, SAMPLE, share);
            rows.add(migration.row("migration to 10 shards, " + sample + " projects" + at(share)));
            ShardPlan sampleSharded = ShardPlan.parse(SAMPLE.value() + "=10", "");
            Timed purge = purge(engine, queues, lines, SAMPLE, sampleSharded, share);
            rows.add(purge.row("purge, " + sample + " projects in 10 shards" + at(share)));
            if (wholeShare == null) {
                rows.add(extrapolated("migration to 10 shards", migration, sample, projects));
                rows.add(extrapolated("purge", purge, sample, projects));
            } else {
                // And, when asked for, the million's own migration to 10 shards, then its purge from them, at a
                // larger share: measured, not extrapolated. At the default share each takes over an hour by design
                // (a quarter of one partition's 1,000 writes a second, and each project is a write to it).
                Timed whole = migrate(engine, MillionBenchmark.TENANT, wholeShare);
                rows.add(whole.row("migration to 10 shards, " + projects + " projects" + at(wholeShare)));
                ShardPlan sharded = ShardPlan.parse(MillionBenchmark.TENANT.value() + "=10", "");
                Timed swept = purge(engine, queues, lines, MillionBenchmark.TENANT, sharded, wholeShare);
                rows.add(swept.row("purge, " + projects + " projects in 10 shards" + at(wholeShare)));
            }
        }

        System.out.printf(
                "%,d projects in one partition; limits at scale 1 (DynamoDB's); job share %.2f of a"
                        + " partition; %d cores; load: %s%n",
                projects, JobPace.Share.DEFAULT_FRACTION, Runtime.getRuntime().availableProcessors(), uptime());
        System.out.println("| operation | time | DynamoDB calls | note |");
        System.out.println("|---|---|---|---|");
        rows.forEach(System.out::println);
    }

    /** An operation's time and DynamoDB calls, over how many invocations, and what it says of itself. */
    private record Timed(double seconds, long calls, String note) {
        Row row(String operation) {
            return new Row(operation, seconds, calls, note);
        }
    }

    private static String at(JobPace.Share share) {
        return String.format(
                ", share %.2f", share.writeUnitsPerSecond() / PartitionCapacity.DYNAMODB.writeUnitsPerSecond());
    }

    /** The migration of {@code tenant} to 10 shards, invoked again until done, as an operator would. */
    private static Timed migrate(TestEngine engine, WorkspaceId tenant, JobPace.Share share) {
        ShardPlan migrating = ShardPlan.parse(tenant.value() + "=10", tenant.value());
        MigrateHotTenantFunction migrate = new MigrateHotTenantFunction(
                engine.client, Api.config("MigrateHotTenant", migrating, MillionBenchmark.TABLE), share);
        long start = System.nanoTime();
        long calls = 0;
        int invocations = 0;
        boolean done = false;
        while (!done) {
            Map<String, Object> result = invoke(migrate, Map.of("workspaceId", tenant.value()), MIGRATE_MILLIS);
            calls += ((Number) result.get("calls")).longValue();
            invocations++;
            done = Boolean.TRUE.equals(result.get("done"));
        }
        return new Timed(seconds(start), calls, invocations + " invocations of 900 s");
    }

    /** The purge of {@code tenant} (its partitions as {@code plan} says), from its DELETE, through continuations. */
    private static Timed purge(
            TestEngine engine,
            LocalQueues queues,
            List<Map<String, Object>> lines,
            WorkspaceId tenant,
            ShardPlan plan,
            JobPace.Share share) {
        Api operator = new Api(engine, plan, MillionBenchmark.TABLE)
                .withJobQueue(queues.client(), queues.url("JobQueue"), Duration.ZERO);
        RunJobMapping purger = new RunJobMapping(engine, MillionBenchmark.TABLE, plan, share, RUN_JOB_MILLIS);
        lines.clear();
        CountDownLatch purged = new CountDownLatch(1);
        long start = System.nanoTime();
        try (QueuePoller poller = purger.start(
                queues,
                lines,
                line -> "purged".equals(line.get("state")) && tenant.value().equals(line.get("workspaceId")),
                purged,
                true)) {
            check(operator.deleteWorkspace(tenant.value(), null));
            await(purged);
        }
        double seconds = seconds(start);
        List<Map<String, Object>> purge = of(lines, "purge");
        long continuations =
                purge.stream().filter(l -> "continues".equals(l.get("state"))).count();
        return new Timed(
                seconds,
                sum(purge, "calls") + 3, // DeleteWorkspace: its own calls, at most 3
                purge.size() + " invocations of 60 s (" + continuations + " continuations), " + sum(purge, "deleted")
                        + " items deleted");
    }

    /** A row for a million projects from one measured on {@code measured}: time and calls scaled linearly. */
    private static Row extrapolated(String operation, Timed measuredOn, long measured, long projects) {
        double factor = (double) projects / measured;
        return new Row(
                operation + ", " + projects + " projects: EXTRAPOLATED",
                measuredOn.seconds() * factor,
                Math.round(measuredOn.calls() * factor),
                "x" + Math.round(factor) + " of the measured row above, not measured");
    }

    private static Map<String, Object> invoke(
            MigrateHotTenantFunction function, Map<String, Object> event, int millis) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            function.handleRequest(
                    new ByteArrayInputStream(Json.write(event).getBytes(StandardCharsets.UTF_8)),
                    out,
                    new TestContext(millis));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Json.readObject(out.toString(StandardCharsets.UTF_8));
    }

    private static List<Map<String, Object>> of(List<Map<String, Object>> lines, String task) {
        synchronized (lines) {
            return lines.stream().filter(l -> task.equals(l.get("task"))).toList();
        }
    }

    private static long sum(List<Map<String, Object>> lines, String field) {
        return lines.stream()
                .map(l -> l.get(field))
                .filter(v -> v instanceof Number)
                .mapToLong(v -> ((Number) v).longValue())
                .sum();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(3, TimeUnit.HOURS)) {
                throw new IllegalStateException("not done in 3 hours");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void check(Lambda.Response response) {
        if (response.status() >= 300) {
            throw new IllegalStateException(response.status() + " " + response.body());
        }
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static String uptime() {
        try {
            return new String(
                            new ProcessBuilder("uptime")
                                    .start()
                                    .getInputStream()
                                    .readAllBytes(),
                            StandardCharsets.UTF_8)
                    .strip();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
