package dev.oneread.store.internal;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ListPartitions;
import dev.oneread.model.ListPosition;
import dev.oneread.store.CallTally;
import dev.oneread.store.Items;
import dev.oneread.store.QueryPool;
import dev.oneread.store.exceptions.InvalidCursorException;
import dev.oneread.store.exceptions.StoreUnavailableException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One page of a list over several partitions (a hot workspace's shards), merged in sort key order.
 *
 * <p>Every partition is queried for {@code limit + 1} items after the page's start, all at once on the query pool
 * ({@link QueryPool}); the merge emits the first {@code limit}. A partition that returned more than it contributed, or that
 * DynamoDB cut short at 1 MB, bounds what may be emitted: nothing past its last item, or one of its unread
 * items could be skipped. The position of the next page is the last emitted sort key (the same for every
 * partition, since they share the sort key space) plus the partitions already exhausted, which later pages
 * do not query. Items created after the first page sort before the position and so never appear out of order.
 * If any partition fails, the page fails: never a silently partial page.
 */
public final class FanOut {
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

    /**
     * @param partitions the partitions in a fixed order (their index is what a position remembers)
     * @param position   where the page starts; empty for the first page
     * @param sortKey    checks a position's sort key: decodes it, or throws
     * @param request    builds the query of one partition: (partition, start after) to request
     * @param order      the order items are emitted in (descending sort key for newest first)
     */
    public Page run(
            ListPartitions partitions,
            Optional<ListPosition> position,
            Function<String, ?> sortKey,
            int limit,
            BiFunction<String, Optional<String>, QueryRequest> request,
            Comparator<String> order,
            CallTally tally) {
        position.ifPresent(p -> requireValid(p, partitions, sortKey));
        Optional<String> after = position.map(ListPosition::afterSortKey);
        TreeSet<Integer> exhaustedBefore =
                new TreeSet<>(position.map(ListPosition::exhausted).orElse(new TreeSet<>()));
        Map<Integer, QueryResponse> responses =
                send(queries(partitions, exhaustedBefore, after, request), partitions.migrating(), tally);
        return merge(responses, limit, order, exhaustedBefore, partitions.size(), partitions.migrating());
    }

    /** The query of every partition not exhausted before this page, by its index. */
    private static Map<Integer, StoreCalls.PartitionQuery> queries(
            ListPartitions partitions,
            Set<Integer> exhaustedBefore,
            Optional<String> after,
            BiFunction<String, Optional<String>, QueryRequest> request) {
        Map<Integer, StoreCalls.PartitionQuery> queries = new LinkedHashMap<>();
        for (int i = 0; i < partitions.size(); i++) {
            if (!exhaustedBefore.contains(i)) {
                QueryRequest query = request.apply(partitions.get(i), after);
                // Mid-migration, a shard must show a copy made just before the source was deleted.
                boolean consistent = partitions.migrating() && i > 0;
                queries.put(
                        i,
                        new StoreCalls.PartitionQuery(
                                partitions.get(i),
                                consistent
                                        ? query.toBuilder().consistentRead(true).build()
                                        : query));
            }
        }
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
     * The page the partitions' answers make (pure): their items merged in {@code order}, at most {@code limit},
     * none past the bound a partition with more items sets, and where the next page starts.
     *
     * @param responses       each partition's answer, by its index, in index order
     * @param exhaustedBefore the partitions earlier pages exhausted (not queried)
     * @param partitionCount  how many partitions the list has
     * @param migrating       whether a migration is under way (index 0 is then its source)
     */
    Page merge(
            Map<Integer, QueryResponse> responses,
            int limit,
            Comparator<String> order,
            Set<Integer> exhaustedBefore,
            int partitionCount,
            boolean migrating) {
        List<Map<String, AttributeValue>> merged = distinctItems(responses);
        merged.sort(Comparator.comparing(this::sortKeyOf, order));
        Optional<String> bound = bound(responses, limit, order);
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
        for (Map.Entry<Integer, QueryResponse> entry : responses.entrySet()) {
            QueryResponse response = entry.getValue();
            boolean allEmitted = response.items().isEmpty() || order.compare(lastSortKey(response), lastEmitted) <= 0;
            // Mid-migration a shard can still receive moved projects below the position, so only the source
            // (which projects only ever leave) may be skipped from now on.
            if (!hasMore(response, limit) && allEmitted && (!migrating || entry.getKey() == 0)) {
                exhausted.add(entry.getKey());
            }
        }
        if (exhausted.size() == partitionCount) {
            return new Page(page, Optional.empty());
        }
        return new Page(page, Optional.of(new ListPosition(lastEmitted, exhausted)));
    }

    /**
     * Every item of the answers once: the same sort key in two partitions is one item caught mid-move by a
     * migration, and the first partition (the workspace's own) holds the current copy. A tombstone (a project
     * deleted during a move) is no item; {@link #bound} still counts it, as a position in its partition.
     */
    private List<Map<String, AttributeValue>> distinctItems(Map<Integer, QueryResponse> responses) {
        Set<String> seen = new HashSet<>();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (QueryResponse response : responses.values()) {
            for (Map<String, AttributeValue> item : response.items()) {
                if (!Items.isTombstone(item) && seen.add(sortKeyOf(item))) {
                    items.add(item);
                }
            }
        }
        return items;
    }

    /** The first, in {@code order}, of the last items of the partitions that hold more: nothing may pass it. */
    private Optional<String> bound(Map<Integer, QueryResponse> responses, int limit, Comparator<String> order) {
        Optional<String> bound = Optional.empty();
        for (QueryResponse response : responses.values()) {
            if (hasMore(response, limit) && !response.items().isEmpty()) {
                String last = lastSortKey(response);
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

    /** True when the partition holds more than this page took: the look-ahead item, or a 1 MB cut. */
    private static boolean hasMore(QueryResponse response, int limit) {
        return response.items().size() > limit
                || response.hasLastEvaluatedKey()
                        && !response.lastEvaluatedKey().isEmpty();
    }

    private String lastSortKey(QueryResponse response) {
        return sortKeyOf(response.items().get(response.items().size() - 1));
    }

    private String sortKeyOf(Map<String, AttributeValue> item) {
        return item.get(sortKeyAttribute).s();
    }
}
