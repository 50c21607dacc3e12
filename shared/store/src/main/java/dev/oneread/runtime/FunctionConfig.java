package dev.oneread.runtime;

import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.ShardPlan;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.ProjectQuota;
import dev.oneread.store.RecentWorkspaces;
import dev.oneread.store.calls.JobPace;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * What a function reads from its environment (set in template.yaml): the table, whether responses carry the
 * {@code X-Dynamo-*} read audit headers, where the keys that seal pagination cursors come from, and the shard
 * plan. Built from one map of variables, and every setting it reads later (quota, fence, pace) comes from that map
 * too, never from the process: on Lambda the map is the process environment, handed in once by the function's
 * no-arg constructor ({@link #fromEnvironment}); in a test it is whatever the test says.
 *
 * <pre>{@code FunctionConfig config = FunctionConfig.from(Map.of("TABLE_NAME", "oneread"), "GetProject");}</pre>
 *
 * @param cursorKeys null for a function that never pages
 * @param environment the variables it was built from; left out of {@link #toString} (it may hold credentials)
 */
public record FunctionConfig(
        String functionName,
        String tableName,
        boolean readAudit,
        CursorKeys.Source cursorKeys,
        ShardPlan shardPlan,
        Map<String, String> environment) {

    public FunctionConfig {
        environment = Map.copyOf(environment);
    }

    /** A function whose other settings are all the template's defaults (tests and tools). */
    public FunctionConfig(
            String functionName, String tableName, boolean readAudit, CursorKeys.Source cursorKeys, ShardPlan plan) {
        this(functionName, tableName, readAudit, cursorKeys, plan, Map.of());
    }

    /** A function with one fixed cursor key (tests and tools). */
    public FunctionConfig(String functionName, String tableName, boolean readAudit, byte[] cursorKey, ShardPlan plan) {
        this(
                functionName,
                tableName,
                readAudit,
                cursorKey == null ? null : CursorKeys.Source.fixed(CursorKeys.single(cursorKey)),
                plan);
    }

    /** A function of a deployment without hot tenants. */
    public FunctionConfig(String functionName, String tableName, boolean readAudit, byte[] cursorKey) {
        this(functionName, tableName, readAudit, cursorKey, ShardPlan.none());
    }

    /**
     * The configuration of a function that never reads the cursor keys' secret. The edge: the one read of this
     * function's environment ({@link FunctionEnvironment}, which on Lambda is exactly {@code System.getenv()}), for
     * the Lambda runtime's no-arg constructors.
     */
    public static FunctionConfig fromEnvironment(String defaultFunctionName) {
        return from(FunctionEnvironment.get(), defaultFunctionName);
    }

    /** The configuration of a function that pages: its cursor keys read by {@code secrets} (the secrets module). */
    public static FunctionConfig fromEnvironment(String defaultFunctionName, CursorKeys.SecretReader secrets) {
        return from(FunctionEnvironment.get(), defaultFunctionName, secrets);
    }

    /** The configuration {@code environment} describes; nothing else is read, now or later. */
    public static FunctionConfig from(Map<String, String> environment, String defaultFunctionName) {
        return from(environment, defaultFunctionName, NO_SECRETS);
    }

    /** As {@link #from(Map, String)}, for a function that pages: its cursor keys read by {@code secrets}. */
    public static FunctionConfig from(
            Map<String, String> environment, String defaultFunctionName, CursorKeys.SecretReader secrets) {
        String table = environment.get("TABLE_NAME");
        if (table == null || table.isBlank()) {
            throw new InvalidSettingException("TABLE_NAME is not set");
        }
        FunctionConfig config = new FunctionConfig(
                environment.getOrDefault("AWS_LAMBDA_FUNCTION_NAME", defaultFunctionName),
                table,
                readAudit(environment.get("READ_AUDIT")),
                cursorKeys(environment, secrets),
                shardPlan(
                        environment.getOrDefault("HOT_TENANT_SHARDS", ""),
                        environment.getOrDefault("HOT_TENANT_MIGRATING", ""),
                        environment.get("INDEX_SHARDS")),
                environment);
        config.checkSettings();
        return config;
    }

    /**
     * Refuses, as the function's init would, an environment whose settings the function cannot use; reads no secret.
     * The local runner's deploy asks it of every function before it swaps them in, as a SnapStart publish would fail.
     *
     * @throws InvalidSettingException naming the variable, its template parameter and the rule
     */
    public static void check(Map<String, String> environment) {
        from(environment, "", (variables, secretId) -> null);
    }

    /**
     * Reads every setting now, so that a value the function cannot use fails its init (on Lambda with SnapStart,
     * the publishing of its version: the deploy fails and the old version keeps serving), never a request.
     *
     * @throws InvalidSettingException naming the variable, its template parameter and the rule
     */
    private void checkSettings() {
        projectQuota();
        recentWorkspaces();
        purgeFence();
        jobPartitionShare();
        hotPartitionThreshold();
    }

    /**
     * The shard plan HOT_TENANT_SHARDS, HOT_TENANT_MIGRATING and INDEX_SHARDS (the template's HotTenantShards,
     * HotTenantMigrating and IndexShards) give: the functions' one reading of them, which the local runner's deploy
     * and console use too.
     *
     * @param indexShards null for the template's default
     * @throws InvalidSettingException naming the parameter and the rule it breaks
     */
    public static ShardPlan shardPlan(String hotTenantShards, String migrating, String indexShards) {
        ShardPlan plan;
        try {
            plan = ShardPlan.parse(hotTenantShards, migrating);
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(e.getMessage());
        }
        return plan.withIndex(
                indexShards == null
                        ? IndexPlan.defaults()
                        : IndexPlan.of(
                                (int) WholeNumber.INDEX_SHARDS.parse("INDEX_SHARDS (IndexShards)", indexShards)));
    }

    @Override
    public String toString() {
        return "FunctionConfig[functionName=" + functionName + ", tableName=" + tableName + ", readAudit=" + readAudit
                + ", shardPlan=" + shardPlan + "]";
    }

    /** PROJECT_QUOTA (the template's ProjectQuota): the default project quota of a workspace. */
    public ProjectQuota projectQuota() {
        return projectQuota(environment.get("PROJECT_QUOTA"));
    }

    /**
     * The project quota PROJECT_QUOTA (the template's ProjectQuota) gives: the functions' one reading of it.
     *
     * @param raw null for the template's default
     */
    public static ProjectQuota projectQuota(String raw) {
        return new ProjectQuota(
                raw == null
                        ? DEFAULT_PROJECT_QUOTA
                        : (int) WholeNumber.PROJECT_QUOTA.parse("PROJECT_QUOTA (ProjectQuota)", raw));
    }

    /**
     * WORKSPACE_REUSE_MILLIS (CreateProject's, in template.yaml): how long a create may reuse a read of its workspace
     * (see RecentWorkspaces); unset or 0, every create reads it.
     */
    public RecentWorkspaces recentWorkspaces() {
        String raw = environment.get("WORKSPACE_REUSE_MILLIS");
        long millis = raw == null ? 0 : WholeNumber.NOT_NEGATIVE.parse("WORKSPACE_REUSE_MILLIS", raw);
        return new RecentWorkspaces(Duration.ofMillis(millis), System::nanoTime);
    }

    /**
     * PURGE_FENCE_SECONDS: how long a purge waits after the DELETE (or after the workspace's last migration lease)
     * before it sweeps, so that every writer that saw the workspace live has ended (the longest timeout of such a
     * writer, and a margin; TemplateTest holds them together; see WorkspacePurge).
     */
    public Duration purgeFence() {
        String raw = environment.get("PURGE_FENCE_SECONDS");
        return Duration.ofSeconds(
                raw == null ? DEFAULT_PURGE_FENCE_SECONDS : WholeNumber.NOT_NEGATIVE.parse("PURGE_FENCE_SECONDS", raw));
    }

    /**
     * JOB_PARTITION_SHARE (the template's JobPartitionShare): the fraction of one partition's capacity (3,000 read
     * and 1,000 write units a second) a job may take of each partition it walks; see JobPace.Share.
     */
    public JobPace.Share jobPartitionShare() {
        String raw = environment.get("JOB_PARTITION_SHARE");
        try {
            // A decimal as CloudFormation's Number reads it (BigDecimal's syntax): not Double's 0.25d, NaN or 0x1p-2.
            return JobPace.Share.of(raw == null ? JobPace.Share.DEFAULT_FRACTION : new BigDecimal(raw).doubleValue());
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException(
                    "JOB_PARTITION_SHARE is '" + raw + "': not a number more than 0, at most 1");
        }
    }

    /** READ_AUDIT (the template's ReadAudit, AllowedValues true and false); unset, off. */
    private static boolean readAudit(String raw) {
        if (raw == null || raw.equals("false")) {
            return false;
        }
        if (raw.equals("true")) {
            return true;
        }
        throw new InvalidSettingException("READ_AUDIT (ReadAudit) is '" + raw + "': neither true nor false");
    }

    /** RunJob's timeout (60 s, a stats task's report entry) and 2 s for a write still in flight. */
    public static final long DEFAULT_PURGE_FENCE_SECONDS = 62;

    /**
     * HOT_TENANT_PROJECTS_THRESHOLD and HOT_TENANT_BYTES_THRESHOLD (the template's HotTenantProjectsThreshold and
     * HotTenantBytesThreshold): when the stats job reports a partition as hot.
     */
    public HotPartitionThreshold hotPartitionThreshold() {
        HotPartitionThreshold defaults = HotPartitionThreshold.defaults();
        return new HotPartitionThreshold(
                threshold("HOT_TENANT_PROJECTS_THRESHOLD", "HotTenantProjectsThreshold", defaults.projects()),
                threshold("HOT_TENANT_BYTES_THRESHOLD", "HotTenantBytesThreshold", defaults.bytes()));
    }

    private long threshold(String variable, String parameter, long otherwise) {
        String raw = environment.get(variable);
        return raw == null ? otherwise : WholeNumber.THRESHOLD.parse(variable + " (" + parameter + ")", raw);
    }

    /** The template's default for ProjectQuota. */
    public static final int DEFAULT_PROJECT_QUOTA = 10_000;

    /**
     * A function built without the secrets module cannot read the secret: told so at init, rather than left without
     * cursor keys to fail at its first page (template.yaml names the secret only for the functions that page).
     */
    private static final CursorKeys.SecretReader NO_SECRETS = (environment, secretId) -> {
        throw new IllegalStateException("CURSOR_KEY_SECRET is set, but this function does not read secrets: build it"
                + " with oneread-secrets and pass CursorKeySecret::fromEnvironment to FunctionConfig");
    };

    /**
     * CURSOR_KEY_SECRET names the Secrets Manager secret (deployed: the key never sits in the environment);
     * CURSOR_KEYS holds the same JSON in plain (the local runner, whose key guards only localhost). Neither: the
     * function never pages.
     */
    private static CursorKeys.Source cursorKeys(Map<String, String> environment, CursorKeys.SecretReader secrets) {
        String local = environment.get("CURSOR_KEYS");
        if (local != null && !local.isBlank()) {
            return CursorKeys.Source.fixed(CursorKeys.parse(local));
        }
        String secret = environment.get("CURSOR_KEY_SECRET");
        if (secret != null && !secret.isBlank()) {
            return secrets.read(environment, secret.strip());
        }
        return null;
    }
}
