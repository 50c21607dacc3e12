package dev.oneread.operations;

import dev.oneread.keys.ListPartitions;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * What one access pattern may cost in DynamoDB, declared by its operation ({@code ListProjectsOperation}, ...; found
 * by route with {@link #ofRoute}): each function reads its own to log whether a request went over it
 * ({@code overBudget} in HttpEndpoint's line, an EMF metric), the local catalogue shows it beside each operation,
 * the integration tests assert it (CostBudgetsTest) and the local console flags any request over it. Calls are exact ceilings (the design's promise:
 * one call, or one per partition of a hot tenant in each of a list page's {@link #FAN_OUT_ROUNDS} rounds); capacity is a ceiling for items within {@link #CAPACITY_ASSUMES},
 * so a request flagged for capacity alone means its items have grown, not that the access pattern is wrong. It is a
 * record: a function's cold path carries its own operation's, not the list.
 *
 * <pre>{@code CostBudget.ofRoute("GET /workspaces/{workspaceId}").orElseThrow().allowance(plan, workspace, false)
 *         .calls() == 1}</pre>
 *
 * @param callsPerPartition the calls of one request, per partition it fans out to
 * @param keyedCalls the calls of a request with an Idempotency-Key, or 0 where a key changes nothing
 * @param capacityPerCall the capacity units one call may consume
 */
public record CostBudget(
        String description, int callsPerPartition, Fan fan, int keyedCalls, BigDecimal capacityPerCall) {

    /**
     * The item size the capacity ceilings assume: reads of items up to 4 KB (0.5 RCU eventually consistent), writes
     * of items up to 1 KB (1 WCU on the table, and 1 per GSI1 entry put or deleted), pages of up to 100 such items.
     */
    public static final String CAPACITY_ASSUMES = "items of up to 4 KB read, 1 KB written, 100 to a page";

    // A write's ceiling: its table unit plus what it does to its GSI1 entry (Developer Guide, "Provisioned throughput
    // considerations for global secondary indexes"): a put or a delete of the entry is 1 more; a write that moves the
    // entry to another index key (a project's status) is a delete and a put, 2 more.
    static final String WRITE_WITH_INDEX_ENTRY = "2";
    static final String WRITE_MOVING_INDEX_ENTRY = "3";
    /** A page's ceiling: up to 100 items of up to 4 KB, eventually consistent, and the look-ahead item. */
    static final String PAGE_READ = "13";
    /** One item of up to 4 KB, eventually consistent. */
    static final String ITEM_READ = "0.5";

    /**
     * The rounds of a list page over several partitions: each asks for its share and a margin, then at most once
     * more the partitions that can still reach the page (FanOut in the store). One round over one partition, or
     * mid-migration, where round 1 asks every partition for the whole page.
     */
    public static final int FAN_OUT_ROUNDS = 2;

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

    /** A budget of {@code calls} per partition of {@code fan}, each of at most {@code capacity} units. */
    static CostBudget of(String description, int calls, Fan fan, int keyedCalls, String capacity) {
        return new CostBudget(description, calls, fan, keyedCalls, new BigDecimal(capacity));
    }

    /**
     * The budget of the route with this HTTP API route key (the event's {@code routeKey}, as template.yaml declares
     * the route), or empty for a route that has none (an event that is not one of the API's routes): its operation's
     * (see {@link Operations}).
     */
    public static Optional<CostBudget> ofRoute(String routeKey) {
        return Operations.ofRoute(routeKey)
                .map(operation -> operation.descriptor().budget());
    }

    /** The calls one request may make, given the tenant's shards and whether it carried an Idempotency-Key. */
    public Allowance allowance(ShardPlan plan, WorkspaceId workspace, boolean idempotencyKey) {
        int partitions = switch (fan) {
            case NONE -> 1;
            case LOCATIONS -> plan.isMigrating(workspace) ? 2 : 1;
            case LOCATIONS_DELETE -> plan.isMigrating(workspace) ? 3 : 1;
            case INDEX_SHARDS -> rounds(plan.index().shards(), false);
            case PROJECT_PARTITIONS -> rounds(plan.projectPartitions(workspace));
            case COLLECTION_PARTITIONS -> rounds(plan.collectionPartitions(workspace));
        };
        int calls = idempotencyKey && keyedCalls > 0 ? keyedCalls : callsPerPartition * partitions;
        return new Allowance(calls, capacityPerCall.multiply(BigDecimal.valueOf(calls)));
    }

    /** The partition queries of a list page's rounds over these partitions, at most. */
    private static int rounds(ListPartitions partitions) {
        return rounds(partitions.size(), partitions.migrating());
    }

    private static int rounds(int partitions, boolean migrating) {
        return partitions > 1 && !migrating ? partitions * FAN_OUT_ROUNDS : partitions;
    }

    /**
     * The calls one request may make, given its path parameters (a workspace that is missing or not valid moves no
     * tenant's fan-out: the request fails before any call).
     */
    public Allowance allowance(ShardPlan plan, Map<String, String> pathParameters, boolean idempotencyKey) {
        WorkspaceId workspace;
        try {
            workspace = WorkspaceId.of(pathParameters.get("workspaceId"));
        } catch (IllegalArgumentException e) {
            workspace = WorkspaceId.of("unknown");
        }
        return allowance(plan, workspace, idempotencyKey);
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
