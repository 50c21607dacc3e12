package dev.oneread.functions.migratehottenant;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.runtime.JobFrame;
import dev.oneread.store.calls.JobPace;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.store.migration.ShardMigration;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A job, not a route: {@code {"workspaceId": "acme"}} moves acme's projects into its shards until done or
 * until the invocation's time runs low, then reports {@code {"moved", "passes", "done", "state"}}. Invoke it again
 * until {@code done} is true; then drop the workspace from HotTenantMigrating. One run at a time: while another
 * holds the workspace's migration lease, a run moves nothing and reports {@code "state": "busy"}.
 */
public final class MigrateHotTenantFunction implements RequestStreamHandler {
    private final ShardMigration migration;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public MigrateHotTenantFunction() {
        this(
                DynamoDbClients.shared(dev.oneread.store.calls.CallPath.JOB),
                FunctionConfig.fromEnvironment("MigrateHotTenant"));
    }

    public MigrateHotTenantFunction(DynamoDbClient client, FunctionConfig config) {
        this(client, config, config.jobPartitionShare());
    }

    /** @param share the most of each partition's capacity a run may take (the template's JobPartitionShare) */
    public MigrateHotTenantFunction(DynamoDbClient client, FunctionConfig config, JobPace.Share share) {
        this.migration = new ShardMigration(client, QueryPool.shared(), config.tableName(), config.shardPlan(), share);
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JobFrame.run(input, output, context, (event, tally, log) -> {
            WorkspaceId workspaceId = WorkspaceId.of(String.valueOf(event.get("workspaceId")));
            ShardMigration.Progress progress = migration.run(workspaceId, tally, log);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("workspaceId", workspaceId.value());
            result.put("moved", progress.moved());
            result.put("passes", progress.passes());
            result.put("done", progress.done());
            result.put("state", progress.state());
            return result;
        });
    }
}
