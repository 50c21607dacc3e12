package dev.oneread.operations;

import java.util.List;

/**
 * The backfill job ({@code BackfillIndex}, an operator's): gives the index keys to items written before the index
 * (BackfillRequests).
 *
 * <pre>{@code BackfillIndexOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class BackfillIndexOperation extends JobOperation {
    public static final BackfillIndexOperation INSTANCE = new BackfillIndexOperation();

    private BackfillIndexOperation() {
        super(new JobDescriptor(
                "backfill",
                "BackfillIndex",
                List.of(),
                "an operator",
                "gives the index keys to items written before the index",
                List.of("BackfillRequests")));
    }
}
