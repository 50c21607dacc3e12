package dev.oneread.local.console;

import dev.oneread.keys.KeyCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Positions in a collection of any size, read from the partitions' {@link SortMarks} instead of from the items
 * before them: the position of a key (how many items the collection shows before it), and where to start reading
 * for a position (the nearest mark at or before it, and how many items to skip from there).
 *
 * <p>Cost, per partition of the collection: one Query of at most one span's keys (about {@link SortMarks#STEP}
 * items, more where writes have since grown the span) for the key, and one for {@code META} (a table's readable
 * items start there). A partition with no marks (an index partition, or one whose count read its keys out of
 * order) is counted from its first item instead (Select=COUNT): that costs the items before the key.
 */
final class CollectionPositions {
    private final CollectionPages pages;
    private final PartitionStats stats;

    CollectionPositions(CollectionPages pages, PartitionStats stats) {
        this.pages = pages;
        this.stats = stats;
    }

    /** Where reading for a position starts: a segment, the sort key (null: the segment's first), the skip. */
    record Start(int segment, String since, long position, long skip) {}

    /** How many items the collection shows before {@code sort} ({@code total} items in all). */
    long rank(
            CollectionPages.Source source,
            List<String> partitions,
            String sort,
            long total,
            CollectionPages.Cost cost) {
        if (source.index() != null) {
            return belowAll(source, partitions, sort, cost);
        }
        long bookkeeping = belowAll(source, partitions, KeyCodec.workspaceSortKey(), cost);
        long below = belowAll(source, partitions, sort, cost);
        return source.segmentOf(sort) == 0 ? below - bookkeeping : total - bookkeeping + below;
    }

    /** Where to read from to show position {@code position} of a collection of {@code total} items. */
    Start start(
            CollectionPages.Source source,
            List<String> partitions,
            long position,
            long total,
            CollectionPages.Cost cost) {
        if (source.index() != null) {
            return new Start(0, null, 0, position);
        }
        String meta = KeyCodec.workspaceSortKey();
        long bookkeeping = belowAll(source, partitions, meta, cost);
        long readable = total - bookkeeping;
        boolean inReadable = position < readable;
        int segment = inReadable ? 0 : 1;
        // The position among the sort keys of all partitions merged, and the marks on the segment's side of META.
        long target = inReadable ? position + bookkeeping : position - readable;
        TreeSet<String> candidates = new TreeSet<>();
        for (String partition : partitions) {
            SortMarks marks = marksOf(source, partition);
            for (int span = 1; marks != null && span < marks.spans(); span++) {
                String boundary = marks.boundary(span);
                if ((boundary.compareTo(meta) > 0) == inReadable) {
                    candidates.add(boundary);
                }
            }
        }
        // The last mark whose position is surely at or before the target (each partition's spans before it only
        // count items below it), then its exact position: back to the one before while that passes the target.
        String since = null;
        long below = inReadable ? bookkeeping : 0;
        for (String candidate : candidates.descendingSet()) {
            if (lowerBound(source, partitions, candidate) > target) {
                continue;
            }
            long exact = belowAll(source, partitions, candidate, cost);
            if (exact <= target) {
                since = candidate;
                below = exact;
                break;
            }
        }
        long at = inReadable ? below - bookkeeping : readable + below;
        return new Start(segment, since == null && inReadable ? meta : since, at, target - below);
    }

    /** Items of the partitions below {@code sort} that their marks alone vouch for (0 without marks). */
    private long lowerBound(CollectionPages.Source source, List<String> partitions, String sort) {
        long sum = 0;
        for (String partition : partitions) {
            SortMarks marks = marksOf(source, partition);
            if (marks != null) {
                sum += marks.before(marks.span(sort));
            }
        }
        return sum;
    }

    /** Items of all the partitions that sort below {@code sort}, the partitions read at once. */
    private long belowAll(
            CollectionPages.Source source, List<String> partitions, String sort, CollectionPages.Cost cost) {
        long sum = 0;
        for (var below : pages.submitAll(partitions, p -> () -> below(source, p, sort, cost))) {
            sum += CollectionPages.await(below);
        }
        return sum;
    }

    private long below(CollectionPages.Source source, String partition, String sort, CollectionPages.Cost cost) {
        SortMarks marks = marksOf(source, partition);
        if (marks == null) {
            return pages.countBetween(source, partition, null, sort, cost);
        }
        int span = marks.span(sort);
        String low = marks.boundary(span);
        return marks.before(span) + (low.equals(sort) ? 0 : pages.countBetween(source, partition, low, sort, cost));
    }

    private SortMarks marksOf(CollectionPages.Source source, String partition) {
        if (source.index() != null) {
            return null;
        }
        PartitionStats.Counts counts = stats.partitions().get(partition);
        return counts == null ? SortMarks.EMPTY : counts.marks();
    }

    static List<String> sorted(java.util.Collection<String> partitions) {
        return new ArrayList<>(new TreeSet<>(partitions));
    }
}
