package dev.oneread.tests;

import java.math.BigDecimal;
import java.util.List;

/**
 * Where the local engine answers differently from DynamoDB, named in one place. Every test states DynamoDB's
 * rule and asks here only where an engine is known to differ, so the same suite passes on dynalite and on an
 * engine that behaves like DynamoDB (see {@link TestEngine#isDynalite()} for how the engine is known).
 */
final class EngineDeviations {
    private EngineDeviations() {}

    /**
     * The read units a Query that returns no item reports. DynamoDB bills the minimum read: 0.5 units,
     * eventually consistent ({@link ItemSizes#eventuallyConsistentReadUnits}); dynalite 4.0 reports 0.
     */
    static BigDecimal emptyQueryCapacity() {
        return TestEngine.get().isDynalite() ? BigDecimal.ZERO : ItemSizes.eventuallyConsistentReadUnits(List.of());
    }
}
