package dev.oneread.store.internal;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ListPartitions;
import dev.oneread.model.ListPosition;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import dev.oneread.store.exceptions.InvalidCursorException;
import dev.oneread.store.exceptions.StoreUnavailableException;
import dev.oneread.store.items.Items;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One page of a list over several partitions (a hot workspace's shards), merged in sort key order, in rounds.
 *
 * <p><b>Round 1</b> asks every partition, all at once on the query pool ({@link QueryPool}), for its share of the
 * page and a margin ({@link #firstTake}), not for the whole page: a page of {@code limit} over N partitions is
 * N Queries of about {@code limit / N} items, where asking each for {@code limit + 1} cost N times the read units
 * of an unsharded page. <b>Later rounds</b> ask again, after what each already returned, only the partitions that
 * can still reach the page: those that hold more and whose last item read sorts before the page's cut-off (its
 * {@code limit}-th item among all read). Each asks for what the page still lacks, which makes the page exact in
 * round 2 (a partition that answers fewer items than asked has no more; one that answers all of them moved its
 * bound by that many), barring a 1 MB cut, after which the rounds go on.
 *
 * <p>A partition that holds more than it contributed bounds what may be emitted: nothing past its last item read, or
 * one of its unread items could be skipped. The position of the next page is the last emitted sort key (the same
 * for every partition, since they share the sort key space) plus the partitions already exhausted, which later
 * pages do not query. Items created after the first page sort before the position and so never appear out of
 * order. If any partition fails, the page fails: never a silently partial page.
 *
 * <p>Mid-migration there is one round, of {@code limit} from each partition, the source first: a project moving
 * between rounds could sit in a shard's range already read and the source's range not yet read, and be missed by
 * both.
 */
public final class FanOut {
    /**
     * Round 1's margin, in standard deviations of one partition's share of a page. Items spread over the
     * partitions as a binomial (CRC-32 of random ids), mean {@code limit / N}, deviation about its root; 3 of them
     * leave a second round to a few pages in a hundred (at a page of 25 over 10 shards, a shard holds 9 or more
     * of a page's items with odds 1 in 2,000; for any of the 10, about 1 in 200). The margin costs nothing while a
     * partition's answer stays within one read unit (4 KB, 0.5 RCU: the least a Query is charged).
     */
    static final double MARGIN_DEVIATIONS = 3.0;

    private final StoreCalls calls;
    private final String sortKeyAttribute;

    /** A fan-out over base table partitions, ordered by their sort key. */
    public FanOut(StoreCalls calls) {
        this(calls, KeyCodec.SORT_KEY);
    }

    /** A fan-out over partitions (of the table, or of an index) ordered by {@code sortKeyAttribute}. */
    public FanOut(StoreCalls calls, String sortKeyAttribute) {
        this.calls = calls;
        this.sortKeyAttribute = sortKeyAttribute;
    }

    /** The merged page: items in order, and where the next page starts (empty on the last). */
    public record Page(List<Map<String, AttributeValue>> items, Optional<ListPosition> next) {}

    /** The query of one partition: up to {@code take} items (and the look-ahead one), after a sort key if given. */
    @FunctionalInterface
    public interface PartitionRequest {
        QueryRequest of(String partition, int take, Optional<String> after);
    }

    /**
     * What one partition answered so far this page, over its rounds: the items in order, and whether it holds
     * more (its last answer was full, or cut at 1 MB).
     */
    record Reading(List<Map<String, AttributeValue>> items, boolean more) {
        Reading {
            items = List.copyOf(items);
        }

        /** A partition's first answer to a query of {@code take} items. */
        static Reading of(QueryResponse response, int take) {
            return new Reading(response.items(), hasMore(response, take));
        }

        /** This reading, followed by the answer to a further query of {@code take} items. */
        Reading then(QueryResponse response, int take) {
            List<Map<String, AttributeValue>> all = new ArrayList<>(items);
            all.addAll(response.items());
            return new Reading(all, hasMore(response, take));
        }
    }

    /**
     * @param partitions the partitions in a fixed order (their index is what a position remembers)
     * @param position   where the page starts; empty for the first page
     * @param sortKey    checks a position's sort key: decodes it, or throws
     * @param request    builds the query of one partition: (partition, items to take, start after) to request
     * @param order      the order items are emitted in (descending sort key for newest first)
     */
    public Page run(
            ListPartitions partitions,
            Optional<ListPosition> position,
            Function<String, ?> sortKey,
            int limit,
            PartitionRequest request,
            Comparator<String> order,
            CallTally tally) {
        position.ifPresent(p -> requireValid(p, partitions, sortKey));
        Optional<String> after = position.map(ListPosition::afterSortKey);
        TreeSet<Integer> exhaustedBefore =
                new TreeSet<>(position.map(ListPosition::exhausted).orElse(new TreeSet<>()));
        int take = firstTake(limit, partitions.size() - exhaustedBefore.size(), partitions.migrating());
        Map<Integer, Integer> round = new LinkedHashMap<>();
        for (int i = 0; i < partitions.size(); i++) {
            if (!exhaustedBefore.contains(i)) {
                round.put(i, take);
            }
        }
        Map<Integer, Reading> readings = new LinkedHashMap<>();
        while (!round.isEmpty()) {
            Map<Integer, QueryResponse> answers =
                    send(queries(partitions, round, readings, after, request), partitions.migrating(), tally);
            boolean progress = false;
            for (Map.Entry<Integer, QueryResponse> answer : answers.entrySet()) {
                int index = answer.getKey();
                int asked = round.get(index);
                Reading before = readings.get(index);
                progress |= !answer.getValue().items().isEmpty();
                readings.put(
                        index,
                        before == null ? Reading.of(answer.getValue(), asked) : before.then(answer.getValue(), asked));
            }
            // Round 1 asked for the whole page (one partition, or mid-migration): it is the only one, as before
            // rounds. A round that read nothing new (only an engine cutting a page before its first item could)
            // would repeat itself: the page stops at the bound instead.
            round = take < limit && progress ? nextRound(readings, limit, order) : Map.of();
        }
        return merge(readings, limit, order, exhaustedBefore, partitions.size(), partitions.migrating());
    }

    /**
     * How many items round 1 asks of each partition: the whole page for one partition, or mid-migration; else the
     * partition's share of the page and {@link #MARGIN_DEVIATIONS} deviations of it, never more than the page.
     */
    static int firstTake(int limit, int partitions, boolean migrating) {
        if (migrating || partitions <= 1) {
            return limit;
        }
        double share = (double) limit / partitions;
        return (int) Math.min(limit, Math.ceil(share + MARGIN_DEVIATIONS * Math.sqrt(share)));
    }

    /** The queries of a round, by partition index: from the page's start, or after what a partition returned. */
    private Map<Integer, StoreCalls.PartitionQuery> queries(
            ListPartitions partitions,
            Map<Integer, Integer> round,
            Map<Integer, Reading> readings,
            Optional<String> pageStart,
            PartitionRequest request) {
        Map<Integer, StoreCalls.PartitionQuery> queries = new LinkedHashMap<>();
        round.forEach((i, take) -> {
            Reading read = readings.get(i);
            Optional<String> after = read == null || read.items().isEmpty()
                    ? pageStart
                    : Optional.of(sortKeyOf(read.items().get(read.items().size() - 1)));
            QueryRequest query = request.of(partitions.get(i), take, after);
            // Mid-migration, a shard must show a copy made just before the source was deleted.
            boolean consistent = partitions.migrating() && i > 0;
            queries.put(
                    i,
                    new StoreCalls.PartitionQuery(
                            partitions.get(i),
                            consistent ? query.toBuilder().consistentRead(true).build() : query));
        });
        return queries;
    }

    /** Sends the queries side by side; mid-migration the source partition's first, alone. */
    private Map<Integer, QueryResponse> send(
            Map<Integer, StoreCalls.PartitionQuery> queries, boolean migrating, CallTally tally) {
        Map<Integer, QueryResponse> responses = new LinkedHashMap<>();
        Map<Integer, StoreCalls.PartitionQuery> together = new LinkedHashMap<>(queries);
        if (migrating && together.containsKey(0)) {
            // The unsharded partition first, then the shards: a project the source no longer shows was copied
            // before it was deleted there, so the shard queries sent afterwards see it. Queried together, a
            // project moving between the two could be missed by both.
            StoreCalls.PartitionQuery source = together.remove(0);
            responses.put(0, calls.query(source.request(), source.partition(), tally));
        }
        responses.putAll(calls.queryAll(together, tally));
        return responses;
    }

    /**
     * The next round (pure), by partition index to the items to ask of it: empty when the page is exact (it has
     * {@code limit} items within the bound, or no partition holds more). Otherwise the partitions that hold more and whose last item read sorts before the cut-off, each asked for
     * what the page still lacks.
     */
    Map<Integer, Integer> nextRound(Map<Integer, Reading> readings, int limit, Comparator<String> order) {
        Optional<String> bound = bound(readings, order);
        if (bound.isEmpty()) {
            return Map.of();
        }
        List<Map<String, AttributeValue>> merged = sortedDistinctItems(readings, order);
        long within = merged.stream()
                .filter(item -> order.compare(sortKeyOf(item), bound.get()) <= 0)
                .count();
        if (within >= limit) {
            return Map.of();
        }
        Optional<String> cutOff =
                merged.size() >= limit ? Optional.of(sortKeyOf(merged.get(limit - 1))) : Optional.empty();
        int lacking = (int) (limit - within);
        Map<Integer, Integer> next = new LinkedHashMap<>();
        readings.forEach((i, read) -> {
            if (read.more()
                    && !read.items().isEmpty()
                    && (cutOff.isEmpty() || order.compare(lastSortKey(read), cutOff.get()) < 0)) {
                next.put(i, lacking);
            }
        });
        return next;
    }

    /**
     * The page the partitions' readings make (pure): their items merged in {@code order}, at most {@code limit},
     * none past the bound a partition with more items sets, and where the next page starts.
     *
     * @param readings        each partition's answers, by its index, in index order
     * @param exhaustedBefore the partitions earlier pages exhausted (not queried)
     * @param partitionCount  how many partitions the list has
     * @param migrating       whether a migration is under way (index 0 is then its source)
     */
    Page merge(
            Map<Integer, Reading> readings,
            int limit,
            Comparator<String> order,
            Set<Integer> exhaustedBefore,
            int partitionCount,
            boolean migrating) {
        List<Map<String, AttributeValue>> merged = sortedDistinctItems(readings, order);
        Optional<String> bound = bound(readings, order);
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        for (Map<String, AttributeValue> item : merged) {
            boolean withinBound = bound.isEmpty() || order.compare(sortKeyOf(item), bound.get()) <= 0;
            if (page.size() == limit || !withinBound) {
                break;
            }
            page.add(item);
        }
        if (page.size() == merged.size() && bound.isEmpty()) {
            return new Page(page, Optional.empty());
        }
        if (page.isEmpty() && bound.isPresent()) {
            // Every item up to the bound was a tombstone (an item there would have been emitted): an empty page
            // that resumes after them. Only mid-move, with more tombstones in a row than the page's limit.
            return new Page(page, Optional.of(new ListPosition(bound.get(), new TreeSet<>(exhaustedBefore))));
        }
        if (page.isEmpty()) {
            // Only possible when a partition was cut at 1 MB before its first item: resume where DynamoDB said.
            throw new StoreUnavailableException(null);
        }
        String lastEmitted = sortKeyOf(page.get(page.size() - 1));
        TreeSet<Integer> exhausted = new TreeSet<>(exhaustedBefore);
        for (Map.Entry<Integer, Reading> entry : readings.entrySet()) {
            Reading read = entry.getValue();
            boolean allEmitted = read.items().isEmpty() || order.compare(lastSortKey(read), lastEmitted) <= 0;
            // Mid-migration a shard can still receive moved projects below the position, so only the source
            // (which projects only ever leave) may be skipped from now on.
            if (!read.more() && allEmitted && (!migrating || entry.getKey() == 0)) {
                exhausted.add(entry.getKey());
            }
        }
        if (exhausted.size() == partitionCount) {
            return new Page(page, Optional.empty());
        }
        return new Page(page, Optional.of(new ListPosition(lastEmitted, exhausted)));
    }

    /**
     * Every item of the readings once, in {@code order}: the same sort key in two partitions is one item caught
     * mid-move by a migration, and the first partition (the workspace's own) holds the current copy. A tombstone (a
     * project deleted during a move) is no item; {@link #bound} still counts it, as a position in its partition.
     */
    private List<Map<String, AttributeValue>> sortedDistinctItems(
            Map<Integer, Reading> readings, Comparator<String> order) {
        Set<String> seen = new HashSet<>();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (Reading read : readings.values()) {
            for (Map<String, AttributeValue> item : read.items()) {
                if (!Items.isTombstone(item) && seen.add(sortKeyOf(item))) {
                    items.add(item);
                }
            }
        }
        items.sort(Comparator.comparing(this::sortKeyOf, order));
        return items;
    }

    /** The first, in {@code order}, of the last items read of the partitions that hold more: nothing may pass it. */
    private Optional<String> bound(Map<Integer, Reading> readings, Comparator<String> order) {
        Optional<String> bound = Optional.empty();
        for (Reading read : readings.values()) {
            if (read.more() && !read.items().isEmpty()) {
                String last = lastSortKey(read);
                bound = bound.isEmpty() || order.compare(last, bound.get()) < 0 ? Optional.of(last) : bound;
            }
        }
        return bound;
    }

    /** A position must fit the list: its sort key decodes, and every exhausted index names one of its partitions. */
    private static void requireValid(ListPosition position, ListPartitions partitions, Function<String, ?> sortKey) {
        try {
            sortKey.apply(position.afterSortKey());
        } catch (KeyCodec.InvalidKeyException e) {
            throw new InvalidCursorException(e);
        }
        if (!position.exhausted().isEmpty() && position.exhausted().last() >= partitions.size()) {
            throw new InvalidCursorException(null);
        }
    }

    /** True when the partition holds more than a query of {@code take} returned: the look-ahead item, or a 1 MB cut. */
    private static boolean hasMore(QueryResponse response, int take) {
        return response.items().size() > take
                || response.hasLastEvaluatedKey()
                        && !response.lastEvaluatedKey().isEmpty();
    }

    private String lastSortKey(Reading read) {
        return sortKeyOf(read.items().get(read.items().size() - 1));
    }

    private String sortKeyOf(Map<String, AttributeValue> item) {
        return item.get(sortKeyAttribute).s();
    }
}
