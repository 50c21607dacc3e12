package dev.oneread.tests.support;

import java.math.BigDecimal;

/**
 * Where the local engine answers differently from DynamoDB, named in one place. Every test states DynamoDB's
 * rule and asks here only where an engine is known to differ, so the same suite passes on dynalite and on an
 * engine that behaves like DynamoDB (see {@link TestEngine#isDynalite()} for how the engine is known).
 *
 * <p>What the engine's guard (local/engine.js) already does as DynamoDB does, so that no test asks here: each global
 * secondary index write in {@code ConsumedCapacity} (the total, and per index for {@code INDEXES}: IndexCapacityTest),
 * the minimum read of a Query that reads nothing (0.5 eventually consistent; dynalite alone reports 0), per-partition
 * limits with their {@code ThrottlingReasons}, back-pressure from an index partition, a table's and an index's
 * OnDemandThroughput caps ({@code IndexWriteMaxOnDemandThroughputExceeded} throttles the table write that writes the
 * capped index), and BatchWriteItem/BatchGetItem's unprocessed items (PartitionLimitsTest).
 *
 * <p>Deviations the tests never meet, named so that nobody takes the local figures for DynamoDB's there
 * (docs/local-runner.md, "Partition limits in the local engine"):
 *
 * <ul>
 *   <li>Item sizes: dynalite counts a string in UTF-16 code units and a number by its own rule; DynamoDB counts UTF-8
 *       bytes. The guard sizes index entries with the same function, so an item of non-ASCII text is billed a little
 *       less, on the table and on the index, than DynamoDB bills it. The suite's items are ASCII where capacity is
 *       asserted.
 *   <li>A hot key's throttle: the engine answers {@code ProvisionedThroughputExceededException} with
 *       {@code TableWriteKeyRangeThroughputExceeded} (or Read, or Index...); DynamoDB may answer an on-demand table's
 *       hot key with a {@code ThrottlingException} carrying the same reasons. The store and the audit treat both
 *       alike ({@code isThrottlingException()}, CallAudit's throttling types), so no test depends on the form.
 *   <li>Reasons the engine never gives: the four {@code ...AccountLimitExceeded} ({@code RequestLimitExceeded}: the
 *       account's per-table quotas) and the four {@code ...ProvisionedThroughputExceeded} (its tables are
 *       on-demand). An index's OnDemandThroughput is read from CreateTable only: an UpdateTable that changes it
 *       leaves the engine's cap as it was.
 *   <li>Split for heat: a partition here is one partition key value, so one key never gets past 1,000 WCU or 3,000
 *       RCU a second. DynamoDB can split a hot key's sort-key range over partitions, except for writes at an
 *       ever-increasing sort key: a workspace's new projects (ULIDs) always land at the newest end, so creates hit the
 *       limit there as here; reads of a hot tenant's older projects can get more on DynamoDB than here.
 *   <li>On-demand scaling: the engine applies no table-wide ceiling but the OnDemandThroughput caps. A new on-demand
 *       DynamoDB table serves 4,000 writes and 12,000 reads a second at once, and traffic over twice its previous
 *       peak within 30 minutes can throttle it (the reason names the table, not a key range) until it has grown:
 *       pre-warm (warm throughput) before such a jump (docs/hot-tenants.md).
 *   <li>Burst: a partition's bucket here holds one second of its limit; DynamoDB keeps up to 300 s of a provisioned
 *       table's unused capacity, which no partition can use past its per-second limit either.
 * </ul>
 *
 * <p>Deviations no test can allow for, because a test that allowed them would no longer test the rule, so the
 * tests fail on such an engine (docs/testing.md, "Another engine"):
 *
 * <ul>
 *   <li>moto_server (5.2.1) does not apply a conditional write atomically: two writes whose condition holds on
 *       the same old item can both succeed, where DynamoDB refuses the second. {@code IdempotencyFaultsTest}'s 50
 *       racing callers with one Idempotency-Key created 4 projects there; on DynamoDB and dynalite, one.
 *   <li>moto_server reports a consumed capacity of 1.0 for every Query, whatever it reads.
 *   <li>An engine without the guard (dynalite alone) reports no index write units and 0 for an empty Query: every
 *       capacity assertion of an indexed write or an empty page fails there.
 * </ul>
 *
 * <p>Modelled, so no longer a deviation: the index's lag. dynalite updates a global secondary index inside the
 * write; DynamoDB within about a second. The local engine makes every index read trail the table
 * ({@code --index-lag}, {@link TestEngine#lag()}), and a test that reads an index after writing waits on the index's
 * own answer ({@link IndexTruth#awaitSettled}), so it passes with DynamoDB's lag, the engine's, or none (an external
 * dynalite without the guard).
 */
public final class EngineDeviations {
    private EngineDeviations() {}

    /**
     * Whether a refused conditional write carries the current item. DynamoDB does when asked
     * ({@code ReturnValuesOnConditionCheckFailure=ALL_OLD}, which the store always sends), so 404 against 412
     * needs no second call; dynalite 4.0 drops the field, so the store reads the item once more.
     */
    public static boolean refusalCarriesCurrentItem() {
        return !TestEngine.get().isDynalite();
    }

    /**
     * Calls of a write refused on an existing item (a versioned write at another version, or a create whose key is
     * taken): the write, plus a consistent read on dynalite.
     */
    public static int refusedWriteCalls() {
        return refusalCarriesCurrentItem() ? 1 : 2;
    }

    /** Read units of that extra consistent read of one small item: 1 on dynalite, none where it is not sent. */
    public static BigDecimal refusedWriteReadUnits() {
        return refusalCarriesCurrentItem() ? BigDecimal.ZERO : BigDecimal.ONE;
    }
}
