package dev.oneread.local.console;

import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.ReadExpressions;
import dev.oneread.keys.KeyCodec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * One page of a collection (one partition, every partition of a tenant, or every shard of one index key), read
 * with Queries and merged in sort-key order. A table collection shows its readable items first ({@code META},
 * then the projects: every sort key from {@code META} on), then its bookkeeping (the idempotency records, and
 * anything else sorting before {@code META}); an index collection is one run, by index sort key.
 *
 * <p>Each partition is queried for up to a page of items after its own position, all partitions at once; the merge
 * takes the first page of them. A partition not exhausted gave a whole page, so nothing taken sorts after one of
 * its unread items. Unlike the store's FanOut, the position is kept per partition (the last sort key taken from
 * it): two partitions may hold the same sort key (a project mid-migration), and each item shows exactly once.
 */
final class CollectionPages implements AutoCloseable {
    /** The two parts of a table collection, in the order they show: readable items, then bookkeeping. */
    static final int SEGMENTS = 2;
    /** Shards queried at once: a hot tenant's 10 in one round on a runner that shares 2 cores. */
    private static final int PARALLEL = 10;

    private final DynamoDbClient client;
    private final String table;
    private final ExecutorService queries = Executors.newFixedThreadPool(PARALLEL, r -> {
        Thread thread = new Thread(r, "console-collection");
        thread.setDaemon(true);
        return thread;
    });

    CollectionPages(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    /** What a collection is read from: the table, by its keys, or the cross-workspace index (GSI1), by its keys. */
    record Source(String index, String partitionAttribute, String sortAttribute, int segments) {
        static final Source TABLE = new Source(null, KeyCodec.PARTITION_KEY, KeyCodec.SORT_KEY, SEGMENTS);
        static final Source INDEX =
                new Source(KeyCodec.INDEX_NAME, KeyCodec.INDEX_PARTITION_KEY, KeyCodec.INDEX_SORT_KEY, 1);

        String partitionOf(Map<String, AttributeValue> item) {
            return item.get(partitionAttribute).s();
        }

        String sortOf(Map<String, AttributeValue> item) {
            return item.get(sortAttribute).s();
        }

        /** The merge order: by sort key, then by partition (two shards may hold one sort key). */
        Comparator<Map<String, AttributeValue>> order() {
            return Comparator.comparing(this::sortOf).thenComparing(this::partitionOf);
        }

        /**
         * The segment {@code sort} belongs to: a table's readable items (0, from {@code META} on) or its
         * bookkeeping (1); an index has one.
         */
        int segmentOf(String sort) {
            return index != null || sort.compareTo(KeyCodec.workspaceSortKey()) >= 0 ? 0 : 1;
        }
    }

    /**
     * Where a page starts: the segment, the last sort key taken from each partition that has given items in it,
     * the partitions that it has exhausted, and for the others the sort key they start at ({@code since}, null:
     * the segment's first), which a seek sets.
     */
    record Position(int segment, Map<String, String> after, Set<String> done, String since) {
        static final Position FIRST = new Position(0, Map.of(), Set.of(), null);

        Position {
            after = Map.copyOf(after);
            done = Set.copyOf(done);
        }

        /** The first item of {@code segment} at or after {@code since}. */
        static Position at(int segment, String since) {
            return new Position(segment, Map.of(), Set.of(), since);
        }
    }

    /** A page's items in order, and where the next page starts (empty after the last). */
    record Page(List<Map<String, AttributeValue>> items, Optional<Position> next) {}

    /** What a page cost: Queries made, items they read, and the read capacity they consumed. */
    static final class Cost {
        private int calls;
        private long items;
        private BigDecimal capacity = BigDecimal.ZERO;

        synchronized void add(QueryResponse response) {
            calls++;
            items += response.scannedCount() == null ? response.count() : response.scannedCount();
            if (response.consumedCapacity() != null
                    && response.consumedCapacity().capacityUnits() != null) {
                capacity = capacity.add(
                        BigDecimal.valueOf(response.consumedCapacity().capacityUnits()));
            }
        }

        synchronized Map<String, Object> toMap() {
            return Map.of("calls", calls, "items", items, "capacity", capacity);
        }
    }

    /** The page of at most {@code limit} items of {@code partitions} from {@code from}. */
    Page read(Source source, List<String> partitions, Position from, int limit, Cost cost) {
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        Position position = from;
        while (true) {
            Position next = readSegment(source, partitions, position, limit - page.size(), page, cost);
            boolean segmentDone = next.done().containsAll(partitions);
            if (!segmentDone) {
                return new Page(page, Optional.of(next));
            }
            if (position.segment() + 1 >= source.segments()) {
                return new Page(page, Optional.empty());
            }
            position = Position.at(position.segment() + 1, null);
            if (page.size() == limit) {
                return new Page(page, Optional.of(position));
            }
        }
    }

    /**
     * The last {@code limit} items of the first segment (the newest projects: their ULIDs sort by creation), one
     * Query per partition read backwards; the next page is the segment after it.
     */
    Page last(Source source, List<String> partitions, int limit, Cost cost) {
        List<Map<String, AttributeValue>> merged = new ArrayList<>();
        for (Future<Read> read : submitAll(partitions, p -> () -> readBackwards(source, p, limit, cost))) {
            merged.addAll(await(read).items());
        }
        merged.sort(source.order().reversed());
        List<Map<String, AttributeValue>> page = new ArrayList<>(merged.subList(0, Math.min(limit, merged.size())));
        java.util.Collections.reverse(page);
        return new Page(page, source.segments() > 1 ? Optional.of(Position.at(1, null)) : Optional.empty());
    }

    /** Adds up to {@code wanted} items of one segment to {@code page}; the position after them. */
    private Position readSegment(
            Source source,
            List<String> partitions,
            Position from,
            int wanted,
            List<Map<String, AttributeValue>> page,
            Cost cost) {
        Map<String, Future<Read>> reads = new TreeMap<>();
        for (String partition : partitions) {
            if (!from.done().contains(partition)) {
                String after = from.after().get(partition);
                reads.put(
                        partition,
                        queries.submit(
                                () -> read(source, partition, from.segment(), after, from.since(), wanted, cost)));
            }
        }
        List<Map<String, AttributeValue>> merged = new ArrayList<>();
        Map<String, Read> byPartition = new HashMap<>();
        for (Map.Entry<String, Future<Read>> entry : reads.entrySet()) {
            Read read = await(entry.getValue());
            byPartition.put(entry.getKey(), read);
            merged.addAll(read.items());
        }
        merged.sort(source.order());
        List<Map<String, AttributeValue>> taken = merged.subList(0, Math.min(wanted, merged.size()));
        page.addAll(taken);
        Map<String, String> after = new HashMap<>(from.after());
        Map<String, Integer> takenFrom = new HashMap<>();
        for (Map<String, AttributeValue> item : taken) {
            String partition = source.partitionOf(item);
            after.put(partition, source.sortOf(item));
            takenFrom.merge(partition, 1, Integer::sum);
        }
        TreeSet<String> done = new TreeSet<>(from.done());
        byPartition.forEach((partition, read) -> {
            if (read.exhausted()
                    && takenFrom.getOrDefault(partition, 0) == read.items().size()) {
                done.add(partition);
                after.remove(partition);
            }
        });
        return new Position(from.segment(), after, done, from.since());
    }

    /** Up to {@code wanted} items of one partition's segment after {@code after}, and whether that was all. */
    private record Read(List<Map<String, AttributeValue>> items, boolean exhausted) {}

    private Read read(Source source, String partition, int segment, String after, String since, int wanted, Cost cost) {
        KeyCondition condition = KeyCondition.partitionEquals(source.partitionAttribute(), partition);
        Map<String, AttributeValue> start = null;
        String meta = KeyCodec.workspaceSortKey();
        if (source.index() != null) {
            // An index's items are paged by key condition: its ExclusiveStartKey would need each item's table key.
            String low = after != null ? after : since;
            condition = low == null
                    ? condition
                    : after != null
                            ? condition.sortGreaterThan(source.sortAttribute(), low)
                            : condition.sortGreaterThanOrEqualTo(source.sortAttribute(), low);
        } else if (segment == 0) {
            String low = since != null && since.compareTo(meta) > 0 ? since : meta;
            condition = condition.sortGreaterThanOrEqualTo(source.sortAttribute(), low);
        } else {
            condition = since == null
                    ? condition.sortLessThan(source.sortAttribute(), meta)
                    : condition.sortBetween(source.sortAttribute(), since, meta);
        }
        if (after != null && source.index() == null) {
            start = Map.of(
                    source.partitionAttribute(), AttributeValue.fromS(partition),
                    source.sortAttribute(), AttributeValue.fromS(after));
        }
        return upTo(source, ReadExpressions.query(condition, List.of(), List.of()), true, start, wanted, segment, cost);
    }

    private Read readBackwards(Source source, String partition, int wanted, Cost cost) {
        KeyCondition condition = KeyCondition.partitionEquals(source.partitionAttribute(), partition);
        if (source.index() == null) {
            condition = condition.sortGreaterThanOrEqualTo(source.sortAttribute(), KeyCodec.workspaceSortKey());
        }
        return upTo(source, ReadExpressions.query(condition, List.of(), List.of()), false, null, wanted, 0, cost);
    }

    /**
     * Up to {@code wanted} items of {@code segment} that the Query of {@code expressions} gives from {@code start}
     * ({@code forward} or backwards), page after page, and whether that was all.
     */
    private Read upTo(
            Source source,
            ReadExpressions expressions,
            boolean forward,
            Map<String, AttributeValue> from,
            int wanted,
            int segment,
            Cost cost) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = from;
        do {
            QueryResponse response = client.query(request(source, expressions, forward)
                    .exclusiveStartKey(start)
                    .limit(wanted - items.size())
                    .build());
            cost.add(response);
            for (Map<String, AttributeValue> item : response.items()) {
                // A bookkeeping seek's BETWEEN ends at META itself, which is the readable part's.
                if (source.segmentOf(source.sortOf(item)) == segment) {
                    items.add(item);
                }
            }
            start = lastKey(response);
        } while (start != null && items.size() < wanted);
        return new Read(items, start == null);
    }

    /**
     * How many items of {@code partition} sort from {@code low} (inclusive; null: from the first) to {@code high}
     * (exclusive): a Select=COUNT Query, or, from a lower bound, a Query of the keys alone (a key condition has no
     * half-open range, and a Query's filter cannot name a key). The read costs what the items between cost.
     */
    long countBetween(Source source, String partition, String low, String high, Cost cost) {
        KeyCondition condition = KeyCondition.partitionEquals(source.partitionAttribute(), partition);
        ReadExpressions expressions;
        if (low == null || low.isEmpty()) {
            expressions =
                    ReadExpressions.query(condition.sortLessThan(source.sortAttribute(), high), List.of(), List.of());
        } else {
            expressions = ReadExpressions.query(
                    condition.sortBetween(source.sortAttribute(), low, high),
                    List.of(),
                    List.of(source.sortAttribute()));
        }
        long count = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder request = request(source, expressions, true).exclusiveStartKey(start);
            if (expressions.projection() == null) {
                request.select(Select.COUNT);
            }
            QueryResponse response = client.query(request.build());
            cost.add(response);
            if (expressions.projection() == null) {
                count += response.count();
            } else {
                count += response.items().stream()
                        .filter(i -> source.sortOf(i).compareTo(high) < 0)
                        .count();
            }
            start = lastKey(response);
        } while (start != null);
        return count;
    }

    private QueryRequest.Builder request(Source source, ReadExpressions expressions, boolean forward) {
        return QueryRequest.builder()
                .tableName(table)
                .indexName(source.index())
                .keyConditionExpression(expressions.keyCondition())
                .projectionExpression(expressions.projection())
                .expressionAttributeNames(expressions.names())
                .expressionAttributeValues(expressions.values())
                // an index answers eventually consistent reads only
                .consistentRead(source.index() == null)
                .scanIndexForward(forward)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
    }

    private static Map<String, AttributeValue> lastKey(QueryResponse response) {
        return response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                ? response.lastEvaluatedKey()
                : null;
    }

    /** Runs one task per partition at once, on this pool. */
    <T> List<Future<T>> submitAll(List<String> partitions, java.util.function.Function<String, Callable<T>> task) {
        List<Future<T>> out = new ArrayList<>();
        partitions.forEach(p -> out.add(queries.submit(task.apply(p))));
        return out;
    }

    @Override
    public void close() {
        queries.shutdownNow();
    }

    static <T> T await(Future<T> read) {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading a collection", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
