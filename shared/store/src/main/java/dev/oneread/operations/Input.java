package dev.oneread.operations;

/** What a sample request of an operation is built from, besides the table (and so which flags {@code expr} gives it). */
public enum Input {
    WORKSPACE,
    PROJECT,
    STATUS,
    /** One shard of the cross-workspace index (of {@code IndexShards}). */
    INDEX_SHARD
}
