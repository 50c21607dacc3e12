package dev.oneread.bench;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.functions.createproject.CreateProjectFunction;
import dev.oneread.functions.createworkspace.CreateWorkspaceFunction;
import dev.oneread.functions.listprojects.ListProjectsFunction;
import dev.oneread.json.Json;
import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.engine.EngineHeat;
import dev.oneread.model.PartitionCapacity;
import dev.oneread.operations.ListProjectsOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.TestContext;
import dev.oneread.tests.support.TestEngine;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * On-demand benchmark (not a test), run by {@code bench/hot-tenant}: an offered load, open loop, against the API's
 * functions in this process, on the local engine with DynamoDB's partition limits scaled by {@code --scale}, and the
 * same steps with the limits off as the baseline. Every second it records what was offered, what was accepted, what
 * the engine throttled (its own heat counters), what clients saw as 503, and latency percentiles.
 *
 * <p>The functions run in process, each request a real Lambda invocation of a real handler (event bytes in, response
 * bytes out) over HTTP to the engine: start-api's HTTP front end tops out near 200 creates/s on 2 cores, below the 10
 * shards' combined ceiling at scale 0.05, so driving it would measure the front end, not the partitions. Latency is
 * measured from the moment a request was due (open loop), so a backlog counts against it.
 *
 * <p>Scenarios: {@code creates} (one tenant's CreateProject, unsharded and sharded), {@code lists} (one tenant's
 * ListProjects pages, unsharded and sharded, both offered the same rates: multiples of the unsharded page's read
 * ceiling), {@code index} (creates across 200 workspaces, with IndexShards 1 and 8).
 *
 * <p>The machine must not set a point: with the limits off every step must be accepted as offered. The bench says
 * which ones were not (then lower {@code --scale}), and prints each step's load average beside it.
 */
public final class HotTenantBench {
    /** A request that waits longer than this for a thread is dropped and counted, so the generator never stalls. */
    private static final int MAX_IN_FLIGHT = 1500;

    private static final int PAGE_SIZE = 25;
    private static final int PROJECTS_PER_LISTED_TENANT = 200;
    private static final int PLATFORM_WORKSPACES = 200;

    /** One step: a scenario's offered rate for a time, on one engine. */
    record Step(String scenario, double scale, int shards, int indexShards, double multiple, double offered) {
        /** What names the step in every line written of it: all but its offered rate. */
        List<Object> columns() {
            return List.of(scenario, scale, shards, indexShards, multiple);
        }
    }

    /** What one list page costs: its calls and read units, and those of a full fan-out (limit + 1 from each shard). */
    record PageCost(int shards, int calls, BigDecimal units, BigDecimal fullFanOutUnits) {}

    /** What one second of a step saw. */
    record Second(
            int second,
            long offered,
            long accepted,
            long unavailable,
            long otherErrors,
            long dropped,
            long engineThrottles,
            double p50,
            double p99) {}

    /** A step's steady state: its seconds after the first. */
    record Summary(
            Step step,
            double offered,
            double accepted,
            double unavailable,
            double engineThrottles,
            double p50,
            double p99,
            long otherErrors,
            long dropped) {
        /** The rates and latencies, as the step's CSV line and its console line both give them. */
        List<Object> rates() {
            return List.of(offered, accepted, unavailable, engineThrottles, p50, p99);
        }
    }

    private final Options options;
    private final List<Summary> summaries = new ArrayList<>();
    private final List<PageCost> pageCosts = new ArrayList<>();
    /** The unsharded page's read ceiling at the run's scale, in pages a second: what both list curves are offered. */
    private double unshardedListCeiling;

    private final PrintWriter seconds;
    private final PrintWriter steps;

    private HotTenantBench(Options options) throws IOException {
        this.options = options;
        Files.createDirectories(options.out());
        seconds = new PrintWriter(Files.newBufferedWriter(options.out().resolve("hot-tenant-seconds.csv")));
        seconds.println("scenario,scale,shards,index_shards,multiple,offered_rate,second,offered,accepted,"
                + "unavailable_503,other_errors,dropped,engine_throttles,p50_ms,p99_ms");
        steps = new PrintWriter(Files.newBufferedWriter(options.out().resolve("hot-tenant-steps.csv")));
        steps.println("scenario,scale,shards,index_shards,multiple,offered_per_s,accepted_per_s,unavailable_per_s,"
                + "engine_throttles_per_s,p50_ms,p99_ms,other_errors,dropped,load_1m");
    }

    /** --scale=0.05 --seconds=6 --multiples=0.5,1,2,5,8,10 --list-multiples=0.5,1,1.5,2,2.5,3 --shards=1,2,5,10
     * --scenarios=creates,lists,index --baseline=yes --out=bench/out */
    record Options(
            double scale,
            int seconds,
            double[] multiples,
            double[] listMultiples,
            int[] shards,
            List<String> scenarios,
            boolean baseline,
            Path out,
            int keepRunning) {
        static Options parse(String[] args) {
            Map<String, String> given = new LinkedHashMap<>();
            for (String arg : args) {
                for (String word : arg.trim().split("\\s+")) {
                    if (word.isEmpty()) {
                        continue;
                    }
                    if (!word.startsWith("--") || !word.contains("=")) {
                        throw new IllegalArgumentException("expected --name=value, got " + word);
                    }
                    given.put(word.substring(2, word.indexOf('=')), word.substring(word.indexOf('=') + 1));
                }
            }
            Options o = new Options(
                    Double.parseDouble(given.getOrDefault("scale", "0.05")),
                    Integer.parseInt(given.getOrDefault("seconds", "6")),
                    Arrays.stream(given.getOrDefault("multiples", "0.5,1,2,5,8,10")
                                    .split(","))
                            .mapToDouble(Double::parseDouble)
                            .toArray(),
                    // Of the unsharded page's read ceiling, to both curves: 10 shards should reach twice it.
                    Arrays.stream(given.getOrDefault("list-multiples", "0.5,1,1.5,2,2.5,3")
                                    .split(","))
                            .mapToDouble(Double::parseDouble)
                            .toArray(),
                    Arrays.stream(given.getOrDefault("shards", "1,2,5,10").split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray(),
                    List.of(given.getOrDefault("scenarios", "creates,lists,index")
                            .split(",")),
                    !"no".equals(given.getOrDefault("baseline", "yes")),
                    Path.of(given.getOrDefault("out", "bench/out")),
                    Integer.parseInt(given.getOrDefault("keep-running", "0")));
            given.keySet()
                    .removeAll(List.of(
                            "scale",
                            "seconds",
                            "multiples",
                            "list-multiples",
                            "shards",
                            "scenarios",
                            "baseline",
                            "out",
                            "keep-running"));
            if (!given.isEmpty()) {
                throw new IllegalArgumentException("unknown options " + given.keySet());
            }
            return o;
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        HotTenantBench bench = new HotTenantBench(options);
        System.out.printf(
                Locale.ROOT,
                "machine: %d cores, load average %s; scale %s; %d s per step%n",
                Runtime.getRuntime().availableProcessors(),
                loadAverage(),
                options.scale(),
                options.seconds());
        List<Double> scales = new ArrayList<>(List.of(options.scale()));
        if (options.baseline()) {
            scales.add(0.0);
        }
        for (double scale : scales) {
            for (String scenario : options.scenarios()) {
                switch (scenario) {
                    case "creates" -> bench.creates(scale);
                    case "lists" -> bench.lists(scale);
                    case "index" -> bench.index(scale);
                    default -> throw new IllegalArgumentException("unknown scenario " + scenario);
                }
            }
        }
        bench.seconds.close();
        bench.steps.close();
        bench.report();
        System.out.printf(Locale.ROOT, "load average at the end: %s%n", loadAverage());
        if (options.keepRunning() > 0) {
            // After any scenario: a console watching the engine shows the steps' last five minutes meanwhile.
            System.out.printf(
                    "keeping the engine at %s for %d s%n",
                    TestEngine.withLimits(options.scale()).endpoint, options.keepRunning());
            Thread.sleep(options.keepRunning() * 1000L);
        }
        System.exit(0);
    }

    // ---- scenarios ----

    /** The write ceiling of one partition, in creates per second: a project item costs 1 WCU (under 1 KB). */
    private static double writeCeiling(double scale) {
        return PartitionCapacity.DYNAMODB.writeUnitsPerSecond() * scale;
    }

    /** Limits off have no ceiling: the baseline offers what the scaled run offered. */
    private double ceilingScale(double scale) {
        return scale == 0 ? options.scale() : scale;
    }

    private void creates(double scale) throws Exception {
        Engine engine = Engine.at(scale);
        for (int shards : options.shards()) {
            for (double multiple : options.multiples()) {
                String ws = Api.freshWorkspaceId("hot");
                ShardPlan plan = plan(ws, shards, IndexPlan.DEFAULT_SHARDS);
                engine.createWorkspace(ws, plan);
                RequestStreamHandler create = new CreateProjectFunction(engine.client, config("CreateProject", plan));
                Step step = new Step(
                        "creates",
                        scale,
                        shards,
                        IndexPlan.DEFAULT_SHARDS,
                        multiple,
                        multiple * writeCeiling(ceilingScale(scale)));
                run(engine, step, i -> createEvent(ws, i), create);
            }
        }
    }

    private void lists(double scale) throws Exception {
        Engine engine = Engine.at(scale);
        for (int shards : new int[] {1, options.shards()[options.shards().length - 1]}) {
            String ws = Api.freshWorkspaceId("read");
            ShardPlan plan = plan(ws, shards, IndexPlan.DEFAULT_SHARDS);
            engine.createWorkspace(ws, plan);
            RequestStreamHandler create = new CreateProjectFunction(engine.client, config("CreateProject", plan));
            for (int i = 0; i < PROJECTS_PER_LISTED_TENANT; i++) {
                engine.untilAccepted(create, createEvent(ws, i));
            }
            RequestStreamHandler list =
                    new ListProjectsFunction(engine.client, QueryPool.create(), config("ListProjects", plan));
            String page = ApiEvent.of("GET", ApiEvent.PROJECTS)
                    .path("workspaceId", ws)
                    .query(Map.of("limit", Integer.toString(PAGE_SIZE)))
                    .json();
            // The set-up's writes may have left a partition in debt; a bucket holds one second.
            Thread.sleep(2_000);
            // What a page costs, and what the same page cost when every shard was asked for limit + 1: those
            // queries, sent here as the fan-out sent them, each for its consumed capacity.
            Map<String, Object> first = engine.invoke(list, page);
            BigDecimal pageUnits = new BigDecimal(header(first, "x-dynamo-capacity"));
            int calls = Integer.parseInt(header(first, "x-dynamo-calls"));
            OperationContext requests = OperationContext.of(TestEngine.TABLE, plan);
            BigDecimal fullFanOut = plan.projectPartitions(WorkspaceId.of(ws)).partitions().stream()
                    .map(partition -> engine.client
                            .query(ListProjectsOperation.generateRequestIn(
                                    requests, partition, PAGE_SIZE, Optional.empty()))
                            .consumedCapacity()
                            .capacityUnits())
                    .map(BigDecimal::valueOf)
                    .reduce(BigDecimal.ZERO, BigDecimal::add);
            pageCosts.add(new PageCost(shards, calls, pageUnits, fullFanOut));
            if (shards == 1) {
                // The read ceiling in pages: a partition's read units over what one unsharded page consumes.
                unshardedListCeiling =
                        PartitionCapacity.DYNAMODB.readUnitsPerSecond() * ceilingScale(scale) / pageUnits.doubleValue();
            }
            System.out.printf(
                    Locale.ROOT,
                    "lists: %d shard(s), a page of %d: %d calls, %s RCU (every shard asked for the page: %s RCU); "
                            + "unsharded read ceiling %.1f pages/s; load average %s%n",
                    shards,
                    PAGE_SIZE,
                    calls,
                    pageUnits,
                    fullFanOut,
                    unshardedListCeiling,
                    loadAverage());
            // Those reads may have left a partition in debt too.
            Thread.sleep(2_000);
            for (double multiple : options.listMultiples()) {
                Step step = new Step(
                        "lists", scale, shards, IndexPlan.DEFAULT_SHARDS, multiple, multiple * unshardedListCeiling);
                run(engine, step, i -> page, list);
            }
        }
    }

    private void index(double scale) throws Exception {
        Engine engine = Engine.at(scale);
        for (int indexShards : new int[] {1, IndexPlan.DEFAULT_SHARDS}) {
            ShardPlan plan = ShardPlan.none().withIndex(IndexPlan.of(indexShards));
            List<String> workspaces = new ArrayList<>();
            for (int w = 0; w < PLATFORM_WORKSPACES; w++) {
                String ws = Api.freshWorkspaceId("plat");
                engine.createWorkspace(ws, plan);
                workspaces.add(ws);
            }
            RequestStreamHandler create = new CreateProjectFunction(engine.client, config("CreateProject", plan));
            for (double multiple : options.multiples()) {
                Step step = new Step(
                        "index", scale, 1, indexShards, multiple, multiple * writeCeiling(ceilingScale(scale)));
                run(engine, step, i -> createEvent(workspaces.get(i % workspaces.size()), i), create);
            }
        }
    }

    private static ShardPlan plan(String ws, int shards, int indexShards) {
        ShardPlan plan = shards <= 1 ? ShardPlan.none() : ShardPlan.parse(ws + "=" + shards, "");
        return plan.withIndex(IndexPlan.of(indexShards));
    }

    private static FunctionConfig config(String name, ShardPlan plan) {
        return new FunctionConfig(name, TestEngine.TABLE, true, Api.CURSOR_KEY, plan);
    }

    private static String createEvent(String ws, int i) {
        return ApiEvent.of("POST", ApiEvent.PROJECTS)
                .path("workspaceId", ws)
                .body("{\"name\":\"load " + i + "\"}")
                .json();
    }

    // ---- the load ----

    /** Offers {@code step.offered()} requests a second for the configured seconds, open loop. */
    private void run(Engine engine, Step step, IntFunction<String> events, RequestStreamHandler handler)
            throws Exception {
        int duration = options.seconds();
        long[] offered = new long[duration + 1];
        AtomicLong[] accepted = counters(duration);
        AtomicLong[] unavailable = counters(duration);
        AtomicLong[] other = counters(duration);
        AtomicLong[] dropped = counters(duration);
        Map<Integer, List<Double>> latencies = new ConcurrentHashMap<>();
        long[] throttles = new long[duration + 1];
        Semaphore room = new Semaphore(MAX_IN_FLIGHT);
        ExecutorService workers = Executors.newCachedThreadPool();
        long interval = (long) (1e9 / step.offered());
        long start = System.nanoTime() + 20_000_000L;
        long end = start + duration * 1_000_000_000L;
        // The engine's throttles, read at each second's end by a thread of its own: the generator may be behind.
        long before = engine.throttles();
        java.util.concurrent.ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor();
        AtomicLong previous = new AtomicLong(before);
        for (int s = 0; s < duration; s++) {
            int second = s;
            poller.schedule(
                    () -> {
                        long now = engine.throttles();
                        throttles[second] = now - previous.getAndSet(now);
                    },
                    start + (s + 1) * 1_000_000_000L - System.nanoTime(),
                    TimeUnit.NANOSECONDS);
        }
        for (long i = 0; ; i++) {
            long due = start + i * interval;
            if (due >= end) {
                break;
            }
            while (System.nanoTime() < due) {
                LockSupport.parkNanos(Math.min(due - System.nanoTime(), 1_000_000L));
            }
            int second = (int) ((due - start) / 1_000_000_000L);
            offered[second]++;
            if (!room.tryAcquire()) {
                dropped[second].incrementAndGet();
                continue;
            }
            String event = events.apply((int) i);
            workers.execute(() -> {
                try {
                    int status = engine.status(handler, event);
                    long done = System.nanoTime();
                    int at = (int) Math.min(duration, (done - start) / 1_000_000_000L);
                    (status < 300 ? accepted : status == 503 ? unavailable : other)[at].incrementAndGet();
                    latencies
                            .computeIfAbsent(at, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                            .add((done - due) / 1e6);
                } finally {
                    room.release();
                }
            });
        }
        poller.shutdown();
        poller.awaitTermination(duration + 5L, TimeUnit.SECONDS);
        workers.shutdown();
        workers.awaitTermination(60, TimeUnit.SECONDS);
        // What the requests still in flight at the end met goes to the last record, which the summary leaves out.
        throttles[duration] = engine.throttles() - previous.get();
        List<Second> record = new ArrayList<>();
        for (int s = 0; s <= duration; s++) {
            List<Double> l = latencies.getOrDefault(s, List.of());
            record.add(new Second(
                    s,
                    offered[s],
                    accepted[s].get(),
                    unavailable[s].get(),
                    other[s].get(),
                    dropped[s].get(),
                    throttles[s],
                    percentile(l, 50),
                    percentile(l, 99)));
        }
        Summary summary = summarize(step, record);
        summaries.add(summary);
        for (Second s : record) {
            seconds.printf(
                    Locale.ROOT,
                    "%s,%s,%d,%d,%s,%.1f,%d,%d,%d,%d,%d,%d,%d,%.1f,%.1f%n",
                    arguments(
                            step.columns(),
                            List.of(
                                    step.offered(),
                                    s.second(),
                                    s.offered(),
                                    s.accepted(),
                                    s.unavailable(),
                                    s.otherErrors(),
                                    s.dropped(),
                                    s.engineThrottles(),
                                    s.p50(),
                                    s.p99())));
        }
        String load = loadAverage().split(" ")[0];
        steps.printf(
                Locale.ROOT,
                "%s,%s,%d,%d,%s,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,%d,%s%n",
                arguments(step.columns(), summary.rates(), List.of(summary.otherErrors(), summary.dropped(), load)));
        steps.flush();
        seconds.flush();
        System.out.printf(
                Locale.ROOT,
                "%-7s scale %-5s shards %2d idx %d x%-4s offered %6.1f/s accepted %6.1f/s 503 %6.1f/s engine"
                        + " throttles %7.1f/s p50 %6.1f ms p99 %7.1f ms load %s%s%n",
                arguments(
                        step.columns(),
                        summary.rates(),
                        List.of(
                                load,
                                summary.otherErrors() + summary.dropped() == 0
                                        ? ""
                                        : " (other errors " + summary.otherErrors() + ", dropped " + summary.dropped()
                                                + ")")));
        // Buckets refill at their limit per second; a step that left a partition in debt must not tax the next.
        Thread.sleep(2_000);
    }

    /** A line's format arguments: its columns' values in turn. */
    private static Object[] arguments(List<?>... columns) {
        return Arrays.stream(columns).flatMap(List::stream).toArray();
    }

    /** The steady state: the step's seconds after its first, while the full load was offered. */
    private static Summary summarize(Step step, List<Second> record) {
        List<Second> steady = record.subList(1, record.size() - 1);
        double n = steady.size();
        List<Double> p50s = new ArrayList<>();
        List<Double> p99s = new ArrayList<>();
        steady.forEach(s -> {
            p50s.add(s.p50());
            p99s.add(s.p99());
        });
        return new Summary(
                step,
                steady.stream().mapToLong(Second::offered).sum() / n,
                steady.stream().mapToLong(Second::accepted).sum() / n,
                steady.stream().mapToLong(Second::unavailable).sum() / n,
                steady.stream().mapToLong(Second::engineThrottles).sum() / n,
                median(p50s),
                p99s.stream().mapToDouble(Double::doubleValue).max().orElse(0),
                record.stream().mapToLong(Second::otherErrors).sum(),
                record.stream().mapToLong(Second::dropped).sum());
    }

    private void report() {
        System.out.println();
        System.out.println("| scenario | limits | shards | IndexShards | offered/s | accepted/s | 503/s | engine"
                + " throttles/s | p50 ms | p99 ms |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        for (Summary s : summaries) {
            System.out.printf(
                    Locale.ROOT,
                    "| %s | %s | %d | %d | %.0f | %.1f | %.1f | %.1f | %.0f | %.0f |%n",
                    s.step().scenario(),
                    s.step().scale() == 0 ? "off" : "x" + s.step().scale(),
                    s.step().shards(),
                    s.step().indexShards(),
                    s.offered(),
                    s.accepted(),
                    s.unavailable(),
                    s.engineThrottles(),
                    s.p50(),
                    s.p99());
        }
        System.out.println();
        summaries.stream()
                .filter(s -> s.step().scale() == 0 && s.accepted() < MACHINE_BOUND * s.offered())
                .forEach(s -> System.out.printf(
                        Locale.ROOT,
                        "the machine set this point (limits off, %.1f of %.1f/s accepted): lower --scale: %s%n",
                        s.accepted(),
                        s.offered(),
                        s.step()));
        listCeilings();
    }

    /** Limits off, a step that accepted less than this share of what it was offered was bound by the machine. */
    private static final double MACHINE_BOUND = 0.97;

    /**
     * The list ceilings, measured: the most pages a second a curve accepted under the limits, and each page's
     * calls and read units against a full fan-out's (every shard asked for the page and the look-ahead).
     */
    private void listCeilings() {
        for (PageCost cost : pageCosts) {
            double ceiling = summaries.stream()
                    .filter(s -> s.step().scenario().equals("lists")
                            && s.step().scale() > 0
                            && s.step().shards() == cost.shards())
                    .mapToDouble(Summary::accepted)
                    .max()
                    .orElse(0);
            System.out.printf(
                    Locale.ROOT,
                    "lists, %d shard(s): a page of %d is %d calls and %s RCU (a full fan-out: %s RCU, x%.2f); "
                            + "ceiling measured %.1f pages/s%n",
                    cost.shards(),
                    PAGE_SIZE,
                    cost.calls(),
                    cost.units(),
                    cost.fullFanOutUnits(),
                    cost.units().doubleValue() / cost.fullFanOutUnits().doubleValue(),
                    ceiling);
        }
    }

    private static AtomicLong[] counters(int duration) {
        AtomicLong[] counters = new AtomicLong[duration + 1];
        for (int i = 0; i <= duration; i++) {
            counters[i] = new AtomicLong();
        }
        return counters;
    }

    private static double percentile(List<Double> values, int p) {
        if (values.isEmpty()) {
            return 0;
        }
        double[] sorted;
        synchronized (values) {
            sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static double median(List<Double> values) {
        return percentile(values, 50);
    }

    private static String header(Map<String, Object> response, String name) {
        @SuppressWarnings("unchecked")
        Map<String, String> headers = (Map<String, String>) response.get("headers");
        return headers.get(name);
    }

    static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** One engine at one scale, with a client for the functions and a reader of its heat. */
    record Engine(TestEngine test, DynamoDbClient client) {
        static Engine at(double scale) {
            TestEngine test = TestEngine.withLimits(scale);
            // So that a console can watch it: start-api on this engine shows its heat as the load runs.
            System.out.printf(
                    "engine at %s (limits x%s); to watch it: DYNAMODB_ENDPOINT=%s TABLE_NAME=%s"
                            + " java -jar local/target/oneread-local.jar start-api --port=3001 --no-seed%n",
                    test.endpoint, scale, test.endpoint, TestEngine.TABLE);
            return new Engine(test, DynamoDbClients.local(test.endpoint));
        }

        java.net.URI endpoint() {
            return test.endpoint;
        }

        /** Every throttle the engine has answered on the benchmark's table and its index, by any reason. */
        long throttles() {
            EngineHeat.Snapshot heat = EngineHeat.read(test.endpoint);
            return heat.partitions().stream()
                    .filter(p -> p.table().equals(TestEngine.TABLE))
                    .mapToLong(EngineHeat.Partition::throttledTotal)
                    .sum();
        }

        void createWorkspace(String ws, ShardPlan plan) {
            RequestStreamHandler create = new CreateWorkspaceFunction(client, config("CreateWorkspace", plan));
            untilAccepted(
                    create,
                    ApiEvent.of("POST", ApiEvent.WORKSPACES)
                            .body(Json.write(
                                    Map.of("id", ws, "name", "Bench " + ws, "settings", Map.of("plan", "team"))))
                            .json());
        }

        /** Set-up writes go on until accepted: a 503 under the limits is retried after a pause. */
        void untilAccepted(RequestStreamHandler handler, String event) {
            for (int attempt = 0; attempt < 100; attempt++) {
                Map<String, Object> response = invoke(handler, event);
                int status = ((Number) response.get("statusCode")).intValue();
                if (status < 300) {
                    return;
                }
                if (status != 503) {
                    throw new IllegalStateException("set-up failed: " + status + " " + response.get("body"));
                }
                LockSupport.parkNanos(100_000_000L);
            }
            throw new IllegalStateException("set-up kept answering 503");
        }

        int status(RequestStreamHandler handler, String event) {
            return ((Number) invoke(handler, event).get("statusCode")).intValue();
        }

        /** A Lambda invocation: event bytes in, response bytes out. */
        Map<String, Object> invoke(RequestStreamHandler handler, String event) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try {
                handler.handleRequest(
                        new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, new TestContext());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Json.readObject(out.toString(StandardCharsets.UTF_8));
        }
    }
}
