package dev.oneread.store;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Optional;

/**
 * What each route may cost in DynamoDB, declared once: the integration tests assert it (CostBudgetsTest) and the
 * local console flags any request over it. Calls are exact ceilings (the design's promise: one call, or one per
 * partition of a hot tenant); capacity is a ceiling for items within {@link #CAPACITY_ASSUMES}, so a request
 * flagged for capacity alone means its items have grown, not that the access pattern is wrong.
 */
public enum CostBudget {
    CREATE_WORKSPACE(
            "CreateWorkspace", "1 PutItem; with Idempotency-Key 3 (claim, put, complete)", 1, Fan.NONE, 3, "1"),
    GET_WORKSPACE("GetWorkspace", "1 GetItem", 1, Fan.NONE, 0, "0.5"),
    UPDATE_WORKSPACE("UpdateWorkspace", "1 UpdateItem", 1, Fan.NONE, 0, "1"),
    CREATE_PROJECT(
            "CreateProject",
            "1 GetItem (the workspace exists) + 1 PutItem; with Idempotency-Key 4 (claim, get, put, complete)",
            2,
            Fan.NONE,
            4,
            "1"),
    LIST_PROJECTS("ListProjects", "1 Query per page, 1 per shard of a hot tenant", 1, Fan.PROJECT_PARTITIONS, 0, "13"),
    GET_PROJECT(
            "GetProject",
            "1 GetItem (the shard is computed from the id; 2 while its tenant moves into shards)",
            1,
            Fan.LOCATIONS,
            0,
            "0.5"),
    UPDATE_PROJECT("UpdateProject", "1 UpdateItem (2 while its tenant moves into shards)", 1, Fan.LOCATIONS, 0, "1"),
    DELETE_PROJECT(
            "DeleteProject",
            "1 DeleteItem (while its tenant moves into shards: 2 where it may be, then 1 consistent GetItem of the"
                    + " migration lease and, while a run holds it, 1 tombstone PutItem: 3 at most)",
            1,
            Fan.LOCATIONS_DELETE,
            0,
            "1"),
    DELETE_WORKSPACE(
            "DeleteWorkspace",
            "1 UpdateItem (marks it purging) + 1 SQS SendMessage (its purge task)",
            1,
            Fan.NONE,
            0,
            "1"),
    LIST_PROJECTS_BY_STATUS(
            "ListProjectsByStatus",
            "1 Query per index shard per page (IndexShards, 8 by default), from the index",
            1,
            Fan.INDEX_SHARDS,
            0,
            "13"),
    LIST_WORKSPACES(
            "ListWorkspaces",
            "1 Query per index shard per page (IndexShards, 8 by default), from the index",
            1,
            Fan.INDEX_SHARDS,
            0,
            "13"),
    GET_HOT_TENANT_REPORT(
            "GetHotTenantReport", "1 Query per page, of the report's own partition", 1, Fan.NONE, 0, "13"),
    GET_WORKSPACE_COLLECTION(
            "GetWorkspaceCollection",
            "1 Query per page, 1 per partition of a hot tenant",
            1,
            Fan.COLLECTION_PARTITIONS,
            0,
            "13");

    /**
     * The item size the capacity ceilings assume: reads of items up to 4 KB (0.5 RCU eventually consistent), writes
     * of items up to 1 KB (1 WCU), pages of up to 100 such items.
     */
    public static final String CAPACITY_ASSUMES = "items of up to 4 KB read, 1 KB written, 100 to a page";

    /** Which partitions a route's calls multiply by. */
    public enum Fan {
        NONE,
        /** Where a project may be: one key, or two (where it was, where it goes) while its tenant moves. */
        LOCATIONS,
        /**
         * A delete while its tenant moves: deleted where it was, 1 read of the migration lease, and 1 tombstone where
         * it goes while a run holds the lease (see ControlPlaneStore#deleteProject). One call otherwise.
         */
        LOCATIONS_DELETE,
        PROJECT_PARTITIONS,
        /** Every shard of the cross-workspace index. */
        INDEX_SHARDS,
        COLLECTION_PARTITIONS
    }

    private final String function;
    private final String description;
    private final int callsPerPartition;
    private final Fan fan;
    private final int keyedCalls;
    private final BigDecimal capacityPerCall;

    CostBudget(
            String function,
            String description,
            int callsPerPartition,
            Fan fan,
            int keyedCalls,
            String capacityPerCall) {
        this.function = function;
        this.description = description;
        this.callsPerPartition = callsPerPartition;
        this.fan = fan;
        this.keyedCalls = keyedCalls;
        this.capacityPerCall = new BigDecimal(capacityPerCall);
    }

    /** The budget of the function with this template logical id. */
    public static Optional<CostBudget> ofFunction(String function) {
        return Arrays.stream(values()).filter(b -> b.function.equals(function)).findFirst();
    }

    public String function() {
        return function;
    }

    public String description() {
        return description;
    }

    /** The calls one request may make, given the tenant's shards and whether it carried an Idempotency-Key. */
    public Allowance allowance(ShardPlan plan, WorkspaceId workspace, boolean idempotencyKey) {
        int partitions = switch (fan) {
            case NONE -> 1;
            case LOCATIONS -> plan.isMigrating(workspace) ? 2 : 1;
            case LOCATIONS_DELETE -> plan.isMigrating(workspace) ? 3 : 1;
            case INDEX_SHARDS -> plan.index().shards();
            case PROJECT_PARTITIONS ->
                plan.projectPartitions(workspace).partitions().size();
            case COLLECTION_PARTITIONS ->
                plan.collectionPartitions(workspace).partitions().size();
        };
        int calls = idempotencyKey && keyedCalls > 0 ? keyedCalls : callsPerPartition * partitions;
        return new Allowance(calls, capacityPerCall.multiply(BigDecimal.valueOf(calls)));
    }

    /** {@code 1.0} as {@code 1}, {@code 0.50} as {@code 0.5}: as the X-Dynamo-Capacity header writes units. */
    public static String plain(BigDecimal units) {
        BigDecimal stripped = units.stripTrailingZeros();
        return (stripped.scale() < 0 ? stripped.setScale(0) : stripped).toPlainString();
    }

    /** A request's ceiling: calls and capacity units. */
    public record Allowance(int calls, BigDecimal capacity) {
        /** What of {@code calls} and {@code capacity} is over this allowance, or empty when neither is. */
        public Optional<String> overrun(int calls, BigDecimal capacity) {
            if (calls > this.calls) {
                return Optional.of(calls + " calls, budget " + this.calls);
            }
            if (capacity != null && capacity.compareTo(this.capacity) > 0) {
                return Optional.of(plain(capacity) + " capacity units, budget " + plain(this.capacity));
            }
            return Optional.empty();
        }
    }
}
