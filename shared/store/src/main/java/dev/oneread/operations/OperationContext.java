package dev.oneread.operations;

import dev.oneread.keys.ShardPlan;
import dev.oneread.store.internal.TableRequests;

/**
 * What every operation's requests are built against: the table, and where each workspace's projects live (the
 * shard plan of hot tenants). As the SDK's {@code OperationContext} names the table an operation runs on.
 *
 * <pre>{@code GetWorkspaceOperation.generateRequest(OperationContext.of("oneread"), WorkspaceId.of("acme"))}</pre>
 */
public record OperationContext(TableRequests table, ShardPlan plan) {
    /** A table of unsharded workspaces only. */
    public static OperationContext of(String tableName) {
        return of(tableName, ShardPlan.none());
    }

    public static OperationContext of(String tableName, ShardPlan plan) {
        return new OperationContext(new TableRequests(tableName), plan);
    }

    public String tableName() {
        return table.tableName();
    }
}
