package dev.oneread.bench;

import dev.oneread.functions.createproject.CreateProjectFunction;
import dev.oneread.keys.ShardPlan;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.calls.CallPath;
import dev.oneread.store.calls.Retries;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * On demand (bench/retries.sh): each retry candidate of {@link Retries#candidates(CallPath)} drives the same hot-key
 * load, CreateProject on one unsharded workspace from many clients at once, against an engine at a small partition
 * scale, one after another in one run. Per candidate: goodput (201s a second), 503s, throttled attempts, and the p99
 * of a request. Ratios are to the SDK's standard mode; the machine's load is printed with them.
 */
public final class RetriesBenchmark {
    /** A write ceiling of 10 units a second per partition: a 2-core machine reaches it many times over. */
    private static final double SCALE = 0.01;

    private static final int CLIENTS = 16;
    private static final Duration RUN = Duration.ofSeconds(8);
    /** A partition's bucket holds about a second: this lets it refill between candidates. */
    private static final Duration REFILL = Duration.ofSeconds(2);

    private record Result(String name, int created, int unavailable, int throttles, double p50, double p99) {}

    public static void main(String[] args) throws Exception {
        TestEngine engine = TestEngine.withLimits(SCALE);
        System.out.printf(
                "machine: %d cores, load %s; engine partition limits x%s; %d clients, %d s per candidate%n",
                Runtime.getRuntime().availableProcessors(), loadAverage(), SCALE, CLIENTS, RUN.toSeconds());
        List<Result> results = new ArrayList<>();
        for (Retries retries : Retries.candidates(CallPath.REQUEST)) {
            results.add(run(engine, retries));
            Thread.sleep(REFILL.toMillis());
        }
        double base = results.get(0).created();
        double baseP99 = results.get(0).p99();
        for (Result r : results) {
            System.out.printf(
                    "%-22s goodput %5.1f/s (x%.2f)  503s %4d  throttled attempts %5d  p50 %6.0f ms  p99 %6.0f ms (x%.2f)%n",
                    r.name(),
                    r.created() / (double) RUN.toSeconds(),
                    r.created() / base,
                    r.unavailable(),
                    r.throttles(),
                    r.p50(),
                    r.p99(),
                    r.p99() / baseP99);
        }
        System.out.printf("load after: %s%n", loadAverage());
        System.exit(0);
    }

    private static Result run(TestEngine engine, Retries retries) throws InterruptedException {
        String ws = Api.freshWorkspaceId("retries");
        new Api(engine, ShardPlan.none(), TestEngine.TABLE).createWorkspace(ws, "Retries");
        DynamoDbClient client = DynamoDbClients.local(engine.endpoint, retries);
        CreateProjectFunction function = new CreateProjectFunction(client, Api.config("CreateProject"));
        AtomicInteger created = new AtomicInteger();
        AtomicInteger unavailable = new AtomicInteger();
        AtomicInteger throttles = new AtomicInteger();
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + RUN.toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        for (int c = 0; c < CLIENTS; c++) {
            clients.execute(() -> {
                while (System.nanoTime() < end) {
                    long t = System.nanoTime();
                    Lambda.Response r = Lambda.invoke(
                            function,
                            ApiEvent.of("POST", ApiEvent.PROJECTS)
                                    .path("workspaceId", ws)
                                    .body("{\"name\":\"p\"}"));
                    latencies.add((System.nanoTime() - t) / 1e6);
                    throttles.addAndGet(Integer.parseInt(r.headers().getOrDefault("x-dynamo-throttles", "0")));
                    if (r.status() == 201) {
                        created.incrementAndGet();
                    } else if (r.status() == 503) {
                        unavailable.incrementAndGet();
                    } else {
                        throw new IllegalStateException("unexpected " + r.status() + ": " + r.body());
                    }
                }
            });
        }
        clients.shutdown();
        clients.awaitTermination(RUN.toSeconds() + 60, TimeUnit.SECONDS);
        client.close();
        List<Double> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        return new Result(
                retries.name(),
                created.get(),
                unavailable.get(),
                throttles.get(),
                percentile(sorted, 0.50),
                percentile(sorted, 0.99));
    }

    private static double percentile(List<Double> sorted, double q) {
        return sorted.isEmpty() ? 0 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return String.valueOf(java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                    .getSystemLoadAverage());
        }
    }
}
