package dev.oneread.operations;

/**
 * The backfill job ({@code BackfillIndex}, an operator's): gives the index keys to items written before the index
 * (BackfillRequests).
 *
 * <pre>{@code BackfillIndexOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class BackfillIndexOperation extends JobOperation {
    public static final BackfillIndexOperation INSTANCE = new BackfillIndexOperation();

    private BackfillIndexOperation() {
        super(JobDescriptor.builder("backfill")
                .function("BackfillIndex")
                .startedBy("an operator")
                .does("gives the index keys to items written before the index")
                .requests("BackfillRequests")
                .build());
    }
}
