package dev.oneread.tests.support;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.local.engine.EngineHeat;
import dev.oneread.local.engine.IndexLag;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.local.iam.IamLedger;
import dev.oneread.local.iam.LeastPrivilegeReport;
import dev.oneread.local.iam.PolicyValues;
import dev.oneread.local.runner.IamFront;
import dev.oneread.local.runner.LocalStack;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateTables;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.calls.CallPath;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.store.calls.Retries;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The real engine every integration test talks to over HTTP: dynalite started once per test JVM on a free
 * port (or the engine at DYNAMODB_ENDPOINT), with the table created from template.yaml. It enforces DynamoDB's
 * partition limits at the scale of the system property {@code partition.limits} (default 1, DynamoDB's own);
 * {@link #withLimits(double)} starts a separate engine at another scale, for tests that must reach the limits. Its
 * indexes trail the table by the system property {@code index.lag}, in milliseconds (default 500, DynamoDB's typical
 * lag, as start-api's; 0 turns it off), so the suite lives in the world AWS has: a test that reads an index waits on
 * the index's own answer.
 */
public final class TestEngine {
    public static final String TABLE = "oneread-test";
    /** Names the engine at DYNAMODB_ENDPOINT, for {@link EngineDeviations}: {@code dynalite}, or anything else. */
    public static final String ENGINE_VARIABLE = "DYNAMODB_ENGINE";
    /** The system property that scales the shared engine's partition limits ({@code -Dpartition.limits=0.05}). */
    public static final String LIMITS_PROPERTY = "partition.limits";
    /** The system property that sets every started engine's index lag in milliseconds ({@code -Dindex.lag=1000}). */
    public static final String LAG_PROPERTY = "index.lag";

    private static TestEngine instance;
    private static final Map<PartitionLimits, TestEngine> scaled = new HashMap<>();

    public final Path root;
    public final URI endpoint;
    public final DynamoDbClient client;
    public final QueryPool pool;
    private final DynaliteEngine engine;
    private IamFront iam;
    private final Map<String, DynamoDbClient> functionClients = new java.util.concurrent.ConcurrentHashMap<>();

    private TestEngine(Path root, DynaliteEngine engine, URI endpoint) {
        this(root, engine, endpoint, DynamoDbClients.local(endpoint));
    }

    private TestEngine(Path root, DynaliteEngine engine, URI endpoint, DynamoDbClient client) {
        this.root = root;
        this.engine = engine;
        this.endpoint = endpoint;
        this.client = client;
        this.pool = QueryPool.create();
        // The tables are made by a client that waits as long as the engine takes: on a busy machine a fresh engine's
        // first calls (one restarted on preloaded data above all) can take longer than a request's 5 s, and setting
        // up is not what any test measures.
        try (DynamoDbClient setup = DynamoDbClients.local(endpoint, PATIENT)) {
            TemplateTables.from(SamTemplate.load(root.resolve("template.yaml")))
                    .createMissing(setup, Map.of("Table", TABLE));
        }
    }

    /**
     * How a test's own calls retry, where they set up or look (a Scan of what a purge left, a bulk fill): the SDK's
     * standard mode, each attempt and call bounded only by a hang. The functions under test keep their own timeouts.
     */
    public static final Retries PATIENT = new Retries(
            "test-patient", AwsRetryStrategy::standardRetryStrategy, Eventually.FAILSAFE, Eventually.FAILSAFE);

    /**
     * True when the tests started dynalite, or when DYNAMODB_ENGINE says the engine at DYNAMODB_ENDPOINT is
     * dynalite; any other engine is expected to answer as DynamoDB does.
     */
    public boolean isDynalite() {
        return engine != null || "dynalite".equalsIgnoreCase(System.getenv(ENGINE_VARIABLE));
    }

    public static synchronized TestEngine get() {
        if (instance == null) {
            Path root = ProjectRoot.find();
            String external = System.getenv(DynamoDbClients.ENDPOINT_VARIABLE);
            if (external != null && !external.isBlank()) {
                instance = new TestEngine(root, null, URI.create(external));
            } else {
                instance = started(root, PartitionLimits.parse(System.getProperty(LIMITS_PROPERTY, "1")));
            }
        }
        return instance;
    }

    /**
     * A local engine of its own, with its own table, enforcing the partition limits at {@code scale}: started once
     * per scale in this JVM, whatever DYNAMODB_ENDPOINT says (only the local engine has these limits).
     */
    public static synchronized TestEngine withLimits(double scale) {
        return scaled.computeIfAbsent(new PartitionLimits(scale), limits -> started(ProjectRoot.find(), limits));
    }

    /**
     * An engine of its own at {@code limits}, whose data {@code load} wrote first with the limits off: a test that
     * must reach the limits needs more data than it could write under them in its time (a partition takes 1,000
     * writes a second times the scale, each item at least one unit). The data is on disk, in a fresh directory
     * the engine is restarted on; it goes with the JVM.
     */
    public static TestEngine preloaded(PartitionLimits limits, java.util.function.Consumer<TestEngine> load) {
        Path root = ProjectRoot.find();
        try {
            Path data = java.nio.file.Files.createTempDirectory("oneread-preloaded");
            data.toFile().deleteOnExit();
            // Loading is set-up: no index reads, so no lag (the engine started on the data mirrors it at first use)
            DynaliteEngine loading = DynaliteEngine.start(root, data, PartitionLimits.OFF, IndexLag.OFF);
            try {
                // Loading is set-up: its client waits as long as the engine takes (see PATIENT)
                load.accept(new TestEngine(
                        root, loading, loading.endpoint(), DynamoDbClients.local(loading.endpoint(), PATIENT)));
            } finally {
                loading.close();
            }
            return started(root, data, limits);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * An engine of its own at {@code limits}, on data already on disk (a benchmark's load), without index lag: the
     * lag's mirror would copy a million items into the engine's memory at the first write, and no benchmark that
     * runs on such data reads the index.
     */
    public static TestEngine onData(Path data, PartitionLimits limits) {
        return started(ProjectRoot.find(), data, limits, IndexLag.OFF);
    }

    private static TestEngine started(Path root, PartitionLimits limits) {
        return started(root, null, limits);
    }

    private static TestEngine started(Path root, Path data, PartitionLimits limits) {
        return started(root, data, limits, lag());
    }

    private static TestEngine started(Path root, Path data, PartitionLimits limits, IndexLag lag) {
        DynaliteEngine engine = DynaliteEngine.start(root, data, limits, lag);
        // One engine per scale for the whole run; the engine registers its own shutdown hook as a backstop.
        Runtime.getRuntime().addShutdownHook(new Thread(engine::close));
        return new TestEngine(root, engine, engine.endpoint());
    }

    /**
     * A client that signs as {@code function} does on {@code table}: its calls go through this engine's IAM front,
     * which allows only what the function's role in template.yaml allows and refuses the rest as AWS does. Every
     * function a test runs gets its client here (or from a {@link dev.oneread.local.runner.LocalStack}).
     */
    public DynamoDbClient functionClient(String function, String table) {
        // One per function and table, as one execution environment keeps one: tests build many Apis.
        return functionClients.computeIfAbsent(
                IamFront.accessKeyId(function, table), key -> functionClient(function, table, List.of()));
    }

    /** {@link #functionClient(String, String)} on {@link #TABLE}. */
    public DynamoDbClient functionClient(String function) {
        return functionClient(function, TABLE);
    }

    /** As {@link #functionClient(String, String)}, with interceptors after the audit (a test's faults). */
    public DynamoDbClient functionClient(String function, String table, List<ExecutionInterceptor> extra) {
        return functionClient(function, table, extra, Retries.of(CallPath.REQUEST));
    }

    /** As {@link #functionClient(String, String, List)}, retrying as {@code retries} says (a job's client). */
    public DynamoDbClient functionClient(
            String function, String table, List<ExecutionInterceptor> extra, Retries retries) {
        Map<String, String> environment = new HashMap<>(IamFront.credentials(function, table));
        environment.put(DynamoDbClients.ENDPOINT_VARIABLE, iam().endpoint().toString());
        environment.put("AWS_REGION", PolicyValues.REGION);
        return DynamoDbClients.fromEnvironment(environment, extra, retries);
    }

    /** This engine's IAM front, started on first use; it goes with the JVM. */
    public synchronized IamFront iam() {
        if (iam == null) {
            SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
            iam = IamFront.start(
                    template, LocalStack.parameters(template, Map.of()), Map.of(), endpoint, null, IamLedger.process());
            writeReportAtExit(root);
        }
        return iam;
    }

    private static boolean reportHooked;

    /**
     * The least-privilege report of everything this JVM's functions did, written when it ends (a suite's run ends it):
     * tests/target/least-privilege.md. docs/least-privilege.md is its reviewed copy.
     */
    private static synchronized void writeReportAtExit(Path root) {
        if (reportHooked) {
            return;
        }
        reportHooked = true;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                java.nio.file.Files.writeString(
                        root.resolve("tests/target/least-privilege.md"),
                        LeastPrivilegeReport.markdown(IamLedger.process()));
            } catch (java.io.IOException e) {
                System.err.println("least-privilege report not written: " + e.getMessage());
            }
        }));
    }

    /** The index lag of every engine the tests start: {@code -Dindex.lag}, else DynamoDB's typical lag. */
    public static IndexLag lag() {
        String given = System.getProperty(LAG_PROPERTY);
        return given == null || given.isBlank() ? IndexLag.DYNAMODB : IndexLag.parse(given);
    }

    /** The partition limits this engine enforces; empty for an engine at DYNAMODB_ENDPOINT. */
    public java.util.Optional<PartitionLimits> limits() {
        return java.util.Optional.ofNullable(engine).map(DynaliteEngine::limits);
    }

    /** The engine's heat: what every partition consumed and how often it was throttled since the engine started. */
    public EngineHeat.Snapshot heat() {
        return EngineHeat.read(endpoint);
    }
}
