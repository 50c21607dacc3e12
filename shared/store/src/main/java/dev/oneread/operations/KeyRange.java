package dev.oneread.operations;

import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.PrimaryKey;

/**
 * The keys an operation addresses: a partition (of the table, or of the index the request names) and a condition on
 * the sort key, or none. For a GetItem or a write it is the one item's key.
 *
 * @param high BETWEEN's upper bound, or null
 * @param descending whether the operation reads newest first
 */
public record KeyRange(String partition, SortOperator operator, String value, String high, boolean descending) {
    /** The one item at {@code key}. */
    public static KeyRange item(PrimaryKey key) {
        return new KeyRange(key.partition(), SortOperator.EQ, key.sort(), null, false);
    }

    /** A whole partition, in key order. */
    public static KeyRange partition(String partition) {
        return new KeyRange(partition, null, null, null, false);
    }
}
