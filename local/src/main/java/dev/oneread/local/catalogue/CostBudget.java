package dev.oneread.local.catalogue;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * What one access pattern may cost in DynamoDB, declared with it in {@link AccessPatterns}: the integration tests
 * assert it (CostBudgetsTest) and the local console flags any request over it. Calls are exact ceilings (the
 * design's promise: one call, or one per partition of a hot tenant); capacity is a ceiling for items within
 * {@link #CAPACITY_ASSUMES}, so a request flagged for capacity alone means its items have grown, not that the access
 * pattern is wrong. It lives in local/ because only the runner and the tests read it: no function zip carries it.
 *
 * <pre>{@code CostBudget.ofFunction("GetWorkspace").orElseThrow().allowance(plan, workspace, false).calls() == 1}</pre>
 *
 * @param callsPerPartition the calls of one request, per partition it fans out to
 * @param keyedCalls the calls of a request with an Idempotency-Key, or 0 where a key changes nothing
 * @param capacityPerCall the capacity units one call may consume
 */
public record CostBudget(
        String description, int callsPerPartition, Fan fan, int keyedCalls, BigDecimal capacityPerCall) {

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

    /** A budget of {@code calls} per partition of {@code fan}, each of at most {@code capacity} units. */
    static CostBudget of(String description, int calls, Fan fan, int keyedCalls, String capacity) {
        return new CostBudget(description, calls, fan, keyedCalls, new BigDecimal(capacity));
    }

    /** The budget of the function with this template logical id. */
    public static Optional<CostBudget> ofFunction(String function) {
        return AccessPatterns.ofFunction(function).map(AccessPattern::budget);
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
