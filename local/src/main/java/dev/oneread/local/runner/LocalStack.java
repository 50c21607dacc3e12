package dev.oneread.local.runner;

import dev.oneread.jobs.SqsClients;
import dev.oneread.keys.ShardPlan;
import dev.oneread.local.auth.LocalJwt;
import dev.oneread.local.auth.SigningKey;
import dev.oneread.local.engine.DynaliteEngine;
import dev.oneread.local.engine.IndexLag;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.local.iam.IamLedger;
import dev.oneread.local.iam.PolicyValues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.local.template.TemplateParameters;
import dev.oneread.local.template.TemplateTables;
import dev.oneread.local.template.TemplateValues;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Everything a local run needs, from template.yaml: the engine (dynalite on a free port, or a given one), the
 * tables (created when missing, and then filled with the {@link SampleData}), and one warm
 * {@link LocalFunction} per function.
 *
 * <pre>{@code try (LocalStack stack = LocalStack.start(root, settings, System.err)) { stack.functions(); }}</pre>
 */
public final class LocalStack implements AutoCloseable {
    /** Local table name unless TABLE_NAME says otherwise. */
    public static final String DEFAULT_TABLE_NAME = "oneread";

    /** The job functions' share of a partition (the template's JobPartitionShare). */
    static final String JOB_PARTITION_SHARE = "JOB_PARTITION_SHARE";
    /**
     * The secret ARN a local run passes for CursorKeySecret. No function reads it: the runner hands every function
     * that names a secret the keys themselves ({@link #LOCAL_CURSOR_KEYS}), as Secrets Manager would.
     */
    public static final String LOCAL_CURSOR_KEY_SECRET =
            "arn:aws:secretsmanager:us-east-1:000000000000:secret:oneread-local-cursor-keys";

    /** The local cursor key (public on purpose: it guards only localhost), in the secret's JSON form. */
    public static final String LOCAL_CURSOR_KEYS =
            "{\"current\":{\"id\":0,\"key\":\"b25lcmVhZC1sb2NhbC1jdXJzb3Ita2V5LTMyYnl0ZXM=\"},\"previous\":[]}";

    /**
     * The operators who may assume the redrive role, for a local run: the template requires the parameter, and no IAM
     * checks it locally (its account is the one {@link #LOCAL_CURSOR_KEY_SECRET} names).
     */
    public static final String LOCAL_REDRIVE_OPERATORS = "arn:aws:iam::000000000000:role/oneread-local-operator";

    /**
     * Parameters the runner sets for a local run unless overridden: the audit headers on, and development
     * values for the cursor key, the token issuer (tokens are signed with the run's own {@link SigningKey}) and the
     * redrive role's operators.
     */
    public static final Map<String, String> LOCAL_DEFAULTS = Map.of(
            "ReadAudit",
            "true",
            "CursorKeySecret",
            LOCAL_CURSOR_KEY_SECRET,
            "JwtIssuer",
            LocalJwt.DEFAULT_ISSUER,
            "JwtAudience",
            LocalJwt.DEFAULT_AUDIENCE,
            "RedriveOperatorArns",
            LOCAL_REDRIVE_OPERATORS);

    /**
     * How a local run is set up.
     *
     * @param engine     the engine to use, or null to start dynalite (in memory, or on {@code dataDir})
     * @param dataDir    where a started dynalite keeps its data; null for memory
     * @param tableName  the physical name of the template's first table (others get {@code -LogicalId})
     * @param overrides  {@code --parameter-overrides}, over the local defaults and the template's defaults
     * @param seed       whether to load the sample data into tables this run creates
     * @param limits     the partition limits of a dynalite this run starts (unused with {@code engine})
     * @param lag        how long that dynalite's indexes trail its tables (unused with {@code engine})
     */
    public record Settings(
            URI engine,
            Path dataDir,
            String tableName,
            Map<String, String> overrides,
            boolean seed,
            Queues queues,
            PartitionLimits limits,
            IndexLag lag) {
        public Settings {
            overrides = Map.copyOf(overrides);
        }

        /** A run without the template's queues (invoke on its own, tests of routes), at DynamoDB's limits and lag. */
        public Settings(URI engine, Path dataDir, String tableName, Map<String, String> overrides, boolean seed) {
            this(engine, dataDir, tableName, overrides, seed, Queues.NONE, PartitionLimits.DYNAMODB, IndexLag.DYNAMODB);
        }

        /** These settings, with these queues. */
        public Settings withQueues(Queues queues) {
            return new Settings(engine, dataDir, tableName, overrides, seed, queues, limits, lag);
        }

        /** These settings, with these partition limits for the engine the run starts. */
        public Settings withLimits(PartitionLimits limits) {
            return new Settings(engine, dataDir, tableName, overrides, seed, queues, limits, lag);
        }

        /** These settings, with this index lag for the engine the run starts. */
        public Settings withLag(IndexLag lag) {
            return new Settings(engine, dataDir, tableName, overrides, seed, queues, limits, lag);
        }

        /** These settings, loading the sample data into new tables or not. */
        public Settings withSeed(boolean seed) {
            return new Settings(engine, dataDir, tableName, overrides, seed, queues, limits, lag);
        }

        /** The engine at DYNAMODB_ENDPOINT and the table at TABLE_NAME when set; else a dynalite of its own. */
        public static Settings fromEnvironment(
                Map<String, String> environment, Map<String, String> overrides, Path dataDir, boolean seed) {
            String endpoint = environment.get(DynamoDbClients.ENDPOINT_VARIABLE);
            return new Settings(
                    endpoint == null || endpoint.isBlank() ? null : URI.create(endpoint),
                    dataDir,
                    environment.getOrDefault("TABLE_NAME", DEFAULT_TABLE_NAME),
                    overrides,
                    seed);
        }
    }

    /**
     * Where the template's queues come from: none, an embedded ElasticMQ of this run's own (start-api), or the
     * one a running start-api already has (invoke beside it).
     */
    public record Queues(boolean start, URI attach) {
        public static final Queues NONE = new Queues(false, null);
        public static final Queues OWN = new Queues(true, null);

        public static Queues of(URI running) {
            return running == null ? NONE : new Queues(false, running);
        }
    }

    private final DynaliteEngine engine;
    private final URI endpoint;
    private final DynamoDbClient client;
    /** Swapped whole by {@link #redeploy}: a caller that took a function keeps it until its invocation ends. */
    private volatile Map<String, LocalFunction> functions;

    private final Map<String, String> tableNames;
    private volatile Map<String, String> parameters;
    private volatile Map<String, String> overrides;
    private Path root;
    private Map<String, String> refs;
    private PrintStream log;
    private final LocalJwt authorizer;
    private LocalQueues queues;
    private IamFront iam;
    private String dataTable;
    private SamTemplate template;

    private LocalStack(
            DynaliteEngine engine,
            URI endpoint,
            DynamoDbClient client,
            Map<String, LocalFunction> functions,
            Map<String, String> tableNames,
            Map<String, String> parameters,
            LocalJwt authorizer) {
        this.engine = engine;
        this.endpoint = endpoint;
        this.client = client;
        this.functions = functions;
        this.tableNames = tableNames;
        this.parameters = parameters;
        this.authorizer = authorizer;
    }

    public static LocalStack start(Path root, Settings settings, PrintStream log) {
        SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));
        Map<String, String> parameters = parameters(template, settings.overrides());
        // Refused before anything starts, as CloudFormation refuses a stack's parameters.
        checkParameters(template, parameters);
        // ElasticMQ takes about 2 s to start: it starts beside the engine, the table and the sample data.
        CompletableFuture<LocalQueues> queuesStarting = startingQueues(template, settings);
        DynaliteEngine engine = settings.engine() == null ? startEngine(root, settings, log) : null;
        URI endpoint = engine == null ? settings.engine() : engine.endpoint();
        DynamoDbClient client = null;
        LocalQueues queues = null;
        IamFront iam = null;
        try {
            TemplateTables tables = TemplateTables.from(template, parameters);
            Map<String, String> tableNames = tableNames(tables, settings.tableName());
            client = DynamoDbClients.local(endpoint);
            List<String> created = tables.createMissing(client, tableNames);
            String dataTable = tableNames.get(tables.logicalIds().get(0));
            if (settings.seed() && !created.isEmpty()) {
                SampleData.seed(client, dataTable, shardPlan(parameters), log);
            }
            queues = queues(template, queuesStarting, settings, dataTable, log);
            Map<String, String> refs = new LinkedHashMap<>(tableNames);
            if (queues != null) {
                refs.putAll(queues.urls()); // !Ref of a queue is its URL
            }
            URI queueEndpoint = queues == null ? null : queues.endpoint();
            Optional<PartitionLimits> limits = Optional.ofNullable(engine).map(DynaliteEngine::limits);
            iam = IamFront.start(
                    template, parameters, queueNames(queues), endpoint, queueEndpoint, IamLedger.process());
            Map<String, LocalFunction> functions = new LinkedHashMap<>(buildFunctions(
                    template, root, parameters, refs, new Endpoints(iam, dataTable, queueEndpoint), limits, log));
            LocalStack stack = new LocalStack(
                    engine,
                    endpoint,
                    client,
                    functions,
                    tableNames,
                    parameters,
                    jwtAuthorizer(
                            template,
                            parameters,
                            () -> SigningKey.loadOrCreate(SigningKey.fileFor(root, settings.dataDir()))));
            stack.queues = queues;
            stack.iam = iam;
            stack.dataTable = dataTable;
            stack.template = template;
            stack.root = root;
            stack.refs = Map.copyOf(refs);
            stack.overrides = settings.overrides();
            stack.log = log;
            return stack;
        } catch (RuntimeException e) {
            if (iam != null) {
                iam.close();
            }
            closeStarted(queues, queuesStarting, client, engine);
            throw e;
        }
    }

    /** ElasticMQ starting in the background, when the settings start queues and the template has some; or null. */
    private static CompletableFuture<LocalQueues> startingQueues(SamTemplate template, Settings settings) {
        boolean ownQueues = settings.queues().start()
                && !template.resourcesOfType("AWS::SQS::Queue").isEmpty();
        return ownQueues
                ? CompletableFuture.supplyAsync(() -> LocalQueues.start(template, settings.tableName(), null))
                : null;
    }

    /** The embedded engine, for settings that name no engine of their own. */
    private static DynaliteEngine startEngine(Path root, Settings settings, PrintStream log) {
        DynaliteEngine engine = DynaliteEngine.start(root, settings.dataDir(), settings.limits(), settings.lag());
        log.println("dynalite listening on " + engine.endpoint()
                + (settings.dataDir() == null ? " (in memory" : " (data in " + settings.dataDir())
                + ", " + describe(settings.limits()) + ", " + settings.lag() + ")");
        return engine;
    }

    /** Each template table's name: the first (the data table) is {@code tableName}, the others get a suffix. */
    private static Map<String, String> tableNames(TemplateTables tables, String tableName) {
        Map<String, String> tableNames = new LinkedHashMap<>();
        for (String logicalId : tables.logicalIds()) {
            tableNames.put(logicalId, tableNames.isEmpty() ? tableName : tableName + "-" + logicalId);
        }
        return tableNames;
    }

    /** The job queues: the ones started beside the engine, or attached to, or none (a template without queues). */
    private static LocalQueues queues(
            SamTemplate template,
            CompletableFuture<LocalQueues> queuesStarting,
            Settings settings,
            String dataTable,
            PrintStream log) {
        if (template.resourcesOfType("AWS::SQS::Queue").isEmpty()) {
            return null;
        }
        if (queuesStarting != null) {
            LocalQueues queues = joined(queuesStarting);
            log.println("job queues on ElasticMQ at " + queues.endpoint() + ": "
                    + String.join(", ", queues.urls().keySet()));
            return queues;
        }
        return settings.queues().attach() == null
                ? null
                : LocalQueues.attach(settings.queues().attach(), template, dataTable);
    }

    /** What a start that failed had started, closed: queues (or their start, once done), client, engine. */
    private static void closeStarted(
            LocalQueues queues,
            CompletableFuture<LocalQueues> queuesStarting,
            DynamoDbClient client,
            DynaliteEngine engine) {
        if (queues != null) {
            queues.close();
        } else if (queuesStarting != null) {
            queuesStarting.thenAccept(LocalQueues::close);
        }
        if (client != null) {
            client.close();
        }
        if (engine != null) {
            engine.close();
        }
    }

    /** Where the functions' calls go: through the IAM front (as the data table's), when the run has queues too. */
    private record Endpoints(IamFront iam, String dataTable, URI queues) {}

    /** Each queue's name (the end of its URL), for the ARNs the roles name. */
    private static Map<String, String> queueNames(LocalQueues queues) {
        Map<String, String> names = new LinkedHashMap<>();
        if (queues != null) {
            queues.urls().forEach((id, url) -> names.put(id, url.substring(url.lastIndexOf('/') + 1)));
        }
        return names;
    }

    /**
     * One fresh (not yet initialised) LocalFunction per template function, configured with {@code parameters}: each
     * signs its calls with its own key, which the IAM front checks against its role.
     */
    private static Map<String, LocalFunction> buildFunctions(
            SamTemplate template,
            Path root,
            Map<String, String> parameters,
            Map<String, String> refs,
            Endpoints endpoints,
            Optional<PartitionLimits> limits,
            PrintStream log) {
        Map<String, LocalFunction> functions = new LinkedHashMap<>();
        new TemplateFunctions(template, root, parameters, refs).functions().forEach((id, spec) -> {
            Map<String, String> environment = new LinkedHashMap<>(spec.environment());
            try {
                FunctionConfig.check(environment);
            } catch (IllegalStateException wouldFailInit) {
                // Refused before any function is swapped in: on AWS, SnapStart runs the init while publishing the
                // version, so the deploy fails there and the old version keeps serving; no request meets it.
                throw new IllegalArgumentException(
                        "Function " + id + " would fail its init: " + wouldFailInit.getMessage());
            }
            limits.ifPresent(scaled -> scaleJobShare(environment, scaled));
            environment.put(
                    DynamoDbClients.ENDPOINT_VARIABLE,
                    endpoints.iam().endpoint().toString());
            if (endpoints.queues() != null) {
                // The queues too through the front: their calls are checked as DynamoDB's are.
                environment.put(
                        SqsClients.ENDPOINT_VARIABLE, endpoints.iam().endpoint().toString());
            }
            environment.put("AWS_REGION", PolicyValues.REGION);
            environment.put("AWS_DEFAULT_REGION", PolicyValues.REGION);
            environment.putAll(IamFront.credentials(id, endpoints.dataTable()));
            String secret = environment.get("CURSOR_KEY_SECRET");
            if (secret != null) {
                // Secrets Manager's part, played by the runner: a role that may not read the secret gets no keys,
                // and the function's init fails as it would on AWS.
                endpoints.iam().secretRead(id, endpoints.dataTable(), secret).ifPresent(denied -> {
                    environment.remove("CURSOR_KEYS");
                    log.println(id + ": AccessDeniedException: " + denied);
                });
            }
            functions.put(id, new LocalFunction(spec, environment, log));
        });
        return functions;
    }

    /**
     * A job's JOB_PARTITION_SHARE is a fraction of DynamoDB's partition (JobPace multiplies it by 3,000 and 1,000
     * units a second). On an engine whose partitions are scaled, the same fraction of them is the share times the
     * scale: without this, at {@code --partition-limits=0.01} a job at a quarter would ask for 25 times its
     * partition's whole capacity, and take it from the tenant. Limits off: nothing to share, the value stays.
     */
    static void scaleJobShare(Map<String, String> environment, PartitionLimits limits) {
        String share = environment.get(JOB_PARTITION_SHARE);
        if (share == null) {
            return;
        }
        try {
            environment.put(JOB_PARTITION_SHARE, limits.scaledJobShare(share));
        } catch (NumberFormatException e) {
            // left as it is: the function itself refuses it, with its own message
        }
    }

    /**
     * What a CloudFormation deploy with new parameters does to the functions: {@code changed} goes over this run's
     * overrides (a parameter not named keeps its value, as {@code aws cloudformation deploy} keeps it), every function
     * gets a new execution environment built from the template with the new parameters, and new invocations go to it;
     * an invocation already running finishes on the old one, which is then closed. Routes and tables do not change.
     *
     * @return every template parameter as the new functions see it
     * @throws IllegalArgumentException a parameter the template does not declare, or a value it does not allow
     *     (the message is CloudFormation's wording, fit for the operator)
     */
    public synchronized Map<String, String> redeploy(Map<String, String> changed) {
        Map<String, String> next = new LinkedHashMap<>(overrides);
        next.putAll(changed);
        Map<String, String> nextParameters = parameters(template, next);
        checkParameters(template, nextParameters);
        Map<String, LocalFunction> fresh = buildFunctions(
                template,
                root,
                nextParameters,
                refs,
                new Endpoints(iam, dataTable, queues == null ? null : queues.endpoint()),
                limits(),
                log);
        Map<String, LocalFunction> old = functions;
        functions = Map.copyOf(fresh);
        parameters = nextParameters;
        overrides = Map.copyOf(next);
        // close() waits for the invocation in flight (invoke and close share the function's lock): off this thread.
        Thread retire = new Thread(() -> old.values().forEach(LocalFunction::close), "retire-functions");
        retire.setDaemon(true);
        retire.start();
        log.println("deploy: new function configurations for " + changed + "; in-flight invocations finish on the old");
        return nextParameters;
    }

    /**
     * Refuses what CloudFormation would refuse (the template's constraints, with its wording), then what the functions
     * would refuse at init that no template constraint can say (a HotTenantMigrating workspace without an entry in
     * HotTenantShards), read by the functions' own parser.
     *
     * @throws IllegalArgumentException the first refusal, worded for the operator
     */
    public static void checkParameters(SamTemplate template, Map<String, String> parameters) {
        TemplateParameters.check(template, parameters);
        try {
            RunningConfiguration.of(parameters);
        } catch (IllegalStateException wouldFailInit) {
            throw new IllegalArgumentException("the functions would fail their init: " + wouldFailInit.getMessage());
        }
    }

    /** The overrides this run applies now (start's, then each redeploy's). */
    public Map<String, String> overrides() {
        return overrides;
    }

    /**
     * Every template parameter as a local run sets it: the template's default, under {@link #LOCAL_DEFAULTS},
     * under {@code overrides}. A name the template does not declare is an IllegalArgumentException.
     */
    public static Map<String, String> parameters(SamTemplate template, Map<String, String> overrides) {
        Map<String, String> given = new LinkedHashMap<>();
        LOCAL_DEFAULTS.forEach((k, v) -> {
            if (template.parameters().containsKey(k)) {
                given.put(k, v);
            }
        });
        given.putAll(overrides);
        return new TemplateFunctions(template, Path.of(""), given, Map.of()).parameters();
    }

    /**
     * The hot tenants the template's parameters declare, and the index's shards (IndexShards), as the functions read
     * them: the console computes index keys with it, to check an imported item's.
     */
    public static ShardPlan shardPlan(Map<String, String> parameters) {
        return FunctionConfig.shardPlan(
                parameters.getOrDefault("HotTenantShards", ""),
                parameters.getOrDefault("HotTenantMigrating", ""),
                parameters.get("IndexShards"));
    }

    /**
     * The HttpApi's JWT authorizer as the runner enforces it, or null when the API has none; {@code key} gives the
     * run's signing key, read (or made) only when there is an authorizer.
     */
    static LocalJwt jwtAuthorizer(
            SamTemplate template, Map<String, String> parameters, java.util.function.Supplier<byte[]> key) {
        for (Map<String, Object> api :
                template.resourcesOfType("AWS::Serverless::HttpApi").values()) {
            Map<String, Object> auth =
                    SamTemplate.map(SamTemplate.map(api.get("Properties")).get("Auth"));
            Object name = auth.get("DefaultAuthorizer");
            Map<String, Object> config = SamTemplate.map(
                    SamTemplate.map(SamTemplate.map(auth.get("Authorizers")).get(String.valueOf(name)))
                            .get("JwtConfiguration"));
            if (name != null && !config.isEmpty()) {
                // The issuer is the stack's own user pool when JwtIssuer is empty, the parameters otherwise; the
                // runner sets them, so a local run always takes the second branch.
                TemplateValues values = TemplateValues.of(template, parameters);
                String issuer = String.valueOf(values.resolve(config.get("issuer")));
                Object audience = SamTemplate.list(values.resolve(config.get("audience"))).stream()
                        .findFirst()
                        .orElse("");
                return new LocalJwt(issuer, String.valueOf(audience), key.get(), java.time.Clock.systemUTC());
            }
        }
        return null;
    }

    public LocalJwt authorizer() {
        return authorizer;
    }

    public URI endpoint() {
        return endpoint;
    }

    /**
     * The partition limits of the engine this run started, for its heat ({@code EngineHeat.read(endpoint())});
     * empty for an engine given at DYNAMODB_ENDPOINT or by a running start-api, whose limits are its own.
     */
    public Optional<PartitionLimits> limits() {
        return Optional.ofNullable(engine).map(DynaliteEngine::limits);
    }

    /** How long the indexes of the engine this run started trail its tables; empty for an engine it did not start. */
    public Optional<IndexLag> lag() {
        return Optional.ofNullable(engine).map(DynaliteEngine::lag);
    }

    /** The limits as the runner's banners say them: {@code partition limits 0.05 x DynamoDB's}, or {@code off}. */
    public static String describe(PartitionLimits limits) {
        return limits.enforced()
                ? "partition limits " + limits + " x DynamoDB's (" + Math.round(limits.readUnitsPerSecond()) + " RCU, "
                        + Math.round(limits.writeUnitsPerSecond()) + " WCU per second per partition key)"
                : "partition limits off";
    }

    /** The runner's own client of the engine (not a function's): for seeding and checks. */
    public DynamoDbClient client() {
        return client;
    }

    public Map<String, LocalFunction> functions() {
        return functions;
    }

    public Map<String, String> tableNames() {
        return tableNames;
    }

    /** Every template parameter as this run's functions see it. */
    public Map<String, String> parameters() {
        return parameters;
    }

    /** The shard plan and project quota this run's functions hold now: after a {@link #redeploy}, the new ones. */
    public RunningConfiguration configuration() {
        return RunningConfiguration.of(parameters);
    }

    /** The queues started beside the engine, once started; their own failure, not a wrapper's. */
    private static LocalQueues joined(java.util.concurrent.CompletableFuture<LocalQueues> starting) {
        try {
            return starting.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /** The template's queues of this run; null when it runs none. */
    public LocalQueues queues() {
        return queues;
    }

    /** The template this stack was built from. */
    public SamTemplate template() {
        return template;
    }

    @Override
    public void close() {
        if (queues != null) {
            queues.close();
        }
        functions.values().forEach(LocalFunction::close);
        iam.close();
        client.close();
        if (engine != null) {
            engine.close();
        }
    }
}
