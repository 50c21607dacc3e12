package dev.oneread.tests.support;

import java.math.BigDecimal;
import java.util.List;

/**
 * Where the local engine answers differently from DynamoDB, named in one place. Every test states DynamoDB's
 * rule and asks here only where an engine is known to differ, so the same suite passes on dynalite and on an
 * engine that behaves like DynamoDB (see {@link TestEngine#isDynalite()} for how the engine is known).
 *
 * <p>Deviations no test can allow for, because a test that allowed them would no longer test the rule, so the
 * tests fail on such an engine (docs/testing.md, "Another engine"):
 *
 * <ul>
 *   <li>moto_server (5.2.1) does not apply a conditional write atomically: two writes whose condition holds on
 *       the same old item can both succeed, where DynamoDB refuses the second. {@code IdempotencyFaultsTest}'s 50
 *       racing callers with one Idempotency-Key created 4 projects there; on DynamoDB and dynalite, one.
 *   <li>moto_server reports a consumed capacity of 1.0 for every Query, whatever it reads.
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
     * The read units a Query that returns no item reports. DynamoDB bills the minimum read: 0.5 units,
     * eventually consistent ({@link ItemSizes#eventuallyConsistentReadUnits}); dynalite 4.0 reports 0.
     */
    public static BigDecimal emptyQueryCapacity() {
        return TestEngine.get().isDynalite() ? BigDecimal.ZERO : ItemSizes.eventuallyConsistentReadUnits(List.of());
    }

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
