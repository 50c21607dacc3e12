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
        // Read as CreateProject reads PROJECT_QUOTA; the template's default when the template has no such parameter.
        return new RunningConfiguration(
                LocalStack.shardPlan(parameters), FunctionConfig.projectQuota(parameters.get("ProjectQuota")));
    }
}
