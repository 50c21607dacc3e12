package dev.oneread.local.console;

import java.util.Arrays;

/**
 * Where a partition's items stand in sort-key order, without holding them: a boundary sort key every {@link #STEP}
 * items, and how many items lie from each boundary to the next. The counting Scan lays the boundaries as it reads
 * (a partition's items come in sort-key order within it); each write seen afterwards moves the count of the span
 * that holds its key. So the console finds the position of a key, or the key at a position, in a collection of any
 * size by reading at most one span (a Query of at most about {@link #STEP} items) per partition, never the items
 * before it.
 *
 * <p>The first boundary is the empty string, below every key. Spans grow or shrink with writes and are laid
 * evenly again by the partition's next count (Rescan, or a recount of a partition whose counts were unsure).
 *
 * <pre>{@code SortMarks marks = ...; long before = marks.before(marks.span("PROJ#01J...")); }</pre>
 */
final class SortMarks {
    /** Items between two boundaries as laid by a count: a position costs reading at most about this many keys. */
    static final int STEP = 1_000;

    static final SortMarks EMPTY = new SortMarks(new String[] {""}, new long[] {0});

    private final String[] keys;
    private final long[] counts;

    private SortMarks(String[] keys, long[] counts) {
        this.keys = keys;
        this.counts = counts;
    }

    /** How many spans there are. */
    int spans() {
        return keys.length;
    }

    /** The lower boundary of span {@code span} (inclusive; the first is the empty string). */
    String boundary(int span) {
        return keys[span];
    }

    /** The span holding {@code sort}: the last whose boundary is at or below it. */
    int span(String sort) {
        int low = 0;
        int high = keys.length - 1;
        while (low < high) {
            int middle = (low + high + 1) >>> 1;
            if (keys[middle].compareTo(sort) <= 0) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        return low;
    }

    /** Items in the spans before {@code span}: the items of the partition that sort below its boundary. */
    long before(int span) {
        long sum = 0;
        for (int i = 0; i < span; i++) {
            sum += counts[i];
        }
        return sum;
    }

    /** These marks with one item of key {@code sort} taken out ({@code sign} -1) or added (+1). */
    SortMarks plus(String sort, int sign) {
        long[] next = counts.clone();
        int span = span(sort);
        next[span] = Math.max(0, next[span] + sign);
        return new SortMarks(keys, next);
    }

    /** Lays the marks as a count reads a partition's keys, in sort-key order; null when they come out of order. */
    static final class Builder {
        private String[] keys = {""};
        private long[] counts = {0};
        private int spans = 1;
        private long items;
        private String last;
        private boolean ordered = true;

        void add(String sort) {
            if (last != null && sort.compareTo(last) <= 0) {
                ordered = false; // not in order: no marks, a position is then counted with Queries
            }
            last = sort;
            if (items > 0 && items % STEP == 0) {
                if (spans == keys.length) {
                    keys = Arrays.copyOf(keys, spans * 2);
                    counts = Arrays.copyOf(counts, spans * 2);
                }
                keys[spans] = sort;
                spans++;
            }
            counts[spans - 1]++;
            items++;
        }

        SortMarks build() {
            return ordered ? new SortMarks(Arrays.copyOf(keys, spans), Arrays.copyOf(counts, spans)) : null;
        }
    }
}
