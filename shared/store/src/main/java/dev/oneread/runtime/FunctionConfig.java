package dev.oneread.runtime;

import dev.oneread.http.CursorKeys;
import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.ShardPlan;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.ProjectQuota;
import dev.oneread.store.JobPace;
import dev.oneread.store.RecentWorkspaces;
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
            throw new IllegalStateException("TABLE_NAME is not set");
        }
        return new FunctionConfig(
                environment.getOrDefault("AWS_LAMBDA_FUNCTION_NAME", defaultFunctionName),
                table,
                Boolean.parseBoolean(environment.getOrDefault("READ_AUDIT", "false")),
                cursorKeys(environment, secrets),
                ShardPlan.parse(
                                environment.getOrDefault("HOT_TENANT_SHARDS", ""),
                                environment.getOrDefault("HOT_TENANT_MIGRATING", ""))
                        .withIndex(indexPlan(environment)),
                environment);
    }

    @Override
    public String toString() {
        return "FunctionConfig[functionName=" + functionName + ", tableName=" + tableName + ", readAudit=" + readAudit
                + ", shardPlan=" + shardPlan + "]";
    }

    /** PROJECT_QUOTA (the template's ProjectQuota): the default project quota of a workspace. */
    public ProjectQuota projectQuota() {
        String raw = environment.get("PROJECT_QUOTA");
        try {
            return raw == null || raw.isBlank()
                    ? new ProjectQuota(DEFAULT_PROJECT_QUOTA)
                    : new ProjectQuota(Integer.parseInt(raw.strip()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("PROJECT_QUOTA is not a positive whole number");
        }
    }

    /**
     * WORKSPACE_REUSE_MILLIS (CreateProject's, in template.yaml): how long a create may reuse a read of its workspace
     * (see RecentWorkspaces); unset or 0, every create reads it.
     */
    public RecentWorkspaces recentWorkspaces() {
        String raw = environment.get("WORKSPACE_REUSE_MILLIS");
        try {
            long millis = raw == null || raw.isBlank() ? 0 : Long.parseLong(raw.strip());
            return new RecentWorkspaces(Duration.ofMillis(millis), System::nanoTime);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("WORKSPACE_REUSE_MILLIS is not a whole number of milliseconds, 0 or more");
        }
    }

    /**
     * PURGE_FENCE_SECONDS: how long a purge waits after the DELETE (or after the workspace's last migration lease)
     * before it sweeps, so that every writer that saw the workspace live has ended (the longest timeout of such a
     * writer, and a margin; TemplateTest holds them together; see WorkspacePurge).
     */
    public Duration purgeFence() {
        String raw = environment.get("PURGE_FENCE_SECONDS");
        try {
            return Duration.ofSeconds(
                    raw == null || raw.isBlank() ? DEFAULT_PURGE_FENCE_SECONDS : Long.parseLong(raw.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("PURGE_FENCE_SECONDS is not a whole number");
        }
    }

    /**
     * JOB_PARTITION_SHARE (the template's JobPartitionShare): the fraction of one partition's capacity (3,000 read
     * and 1,000 write units a second) a job may take of each partition it walks; see JobPace.Share.
     */
    public JobPace.Share jobPartitionShare() {
        String raw = environment.get("JOB_PARTITION_SHARE");
        try {
            return JobPace.Share.of(
                    raw == null || raw.isBlank() ? JobPace.Share.DEFAULT_FRACTION : Double.parseDouble(raw.strip()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("JOB_PARTITION_SHARE is not a number more than 0, at most 1");
        }
    }

    /** RunJob's timeout (60 s, a stats task's report entry) and 2 s for a write still in flight. */
    public static final long DEFAULT_PURGE_FENCE_SECONDS = 62;

    /**
     * HOT_TENANT_PROJECTS_THRESHOLD and HOT_TENANT_BYTES_THRESHOLD (the template's HotTenantProjectsThreshold and
     * HotTenantBytesThreshold): when the stats job reports a partition as hot.
     */
    public HotPartitionThreshold hotPartitionThreshold() {
        HotPartitionThreshold defaults = HotPartitionThreshold.defaults();
        try {
            return new HotPartitionThreshold(
                    longOr(environment.get("HOT_TENANT_PROJECTS_THRESHOLD"), defaults.projects()),
                    longOr(environment.get("HOT_TENANT_BYTES_THRESHOLD"), defaults.bytes()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    "HOT_TENANT_PROJECTS_THRESHOLD and HOT_TENANT_BYTES_THRESHOLD are positive" + " whole numbers");
        }
    }

    private static long longOr(String raw, long otherwise) {
        return raw == null || raw.isBlank() ? otherwise : Long.parseLong(raw.strip());
    }

    /** The template's default for ProjectQuota. */
    public static final int DEFAULT_PROJECT_QUOTA = 10_000;

    /** INDEX_SHARDS (the template's IndexShards): how many partitions each index key is spread over. */
    private static IndexPlan indexPlan(Map<String, String> environment) {
        String raw = environment.get("INDEX_SHARDS");
        if (raw == null || raw.isBlank()) {
            return IndexPlan.defaults();
        }
        try {
            return IndexPlan.of(Integer.parseInt(raw.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("INDEX_SHARDS is not a number");
        }
    }

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
