package dev.oneread.local.runner;

import dev.oneread.keys.ShardPlan;
import dev.oneread.model.ProjectQuota;
import dev.oneread.runtime.FunctionConfig;
import java.util.Map;

/**
 * What the stack's functions run with now, in the terms the console's writes need: the shard plan (HotTenantShards,
 * HotTenantMigrating, IndexShards) and the default project quota (ProjectQuota). A {@code deploy} changes both, so a
 * writer asks for it at each write ({@link LocalStack#configuration()}), never once at start-up.
 *
 * <pre>{@code RunningConfiguration now = stack.configuration(); now.plan().locate(workspace, project).home();}</pre>
 */
public record RunningConfiguration(ShardPlan plan, ProjectQuota projectQuota) {
    /** The configuration {@code parameters} (every template parameter, as {@link LocalStack#parameters()}) give. */
    public static RunningConfiguration of(Map<String, String> parameters) {
        String quota = parameters.getOrDefault("ProjectQuota", "");
        return new RunningConfiguration(
                LocalStack.shardPlan(parameters),
                // The template's Number parameter, checked by its MinValue before any deploy; its default when unset.
                new ProjectQuota(
                        quota.isBlank() ? FunctionConfig.DEFAULT_PROJECT_QUOTA : Integer.parseInt(quota.strip())));
    }
}
