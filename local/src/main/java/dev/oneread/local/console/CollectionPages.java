package dev.oneread.local.console;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One page of a collection (one partition, or every partition of a tenant), read with Queries and merged in
 * sort-key order: the collection's readable items first ({@code META}, then the projects: every sort key from
 * {@code META} on), then its bookkeeping (the idempotency records, and anything else sorting before {@code META}).
 *
 * <p>Each partition is queried for up to a page of items after its own position, all partitions at once; the merge
 * takes the first page of them. A partition not exhausted gave a whole page, so nothing taken sorts after one of
 * its unread items. Unlike the store's FanOut, the position is kept per partition (the last sort key taken from
 * it): two partitions may hold the same sort key (a project mid-migration), and each item shows exactly once.
 */
final class CollectionPages implements AutoCloseable {
    /** The two parts of a collection, in the order they show: readable items, then bookkeeping. */
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

    /**
     * Where a page starts: the segment, the last sort key taken from each partition that has given items in
     * it, and the partitions that it has exhausted.
     */
    record Position(int segment, Map<String, String> after, java.util.Set<String> done) {
        static final Position FIRST = new Position(0, Map.of(), java.util.Set.of());

        Position {
            after = Map.copyOf(after);
            done = java.util.Set.copyOf(done);
        }
    }

    /** A page's items in order, and where the next page starts (empty after the last). */
    record Page(List<Map<String, AttributeValue>> items, Optional<Position> next) {}

    /** The page of at most {@code limit} items of {@code partitions} from {@code from}. */
    Page read(List<String> partitions, Position from, int limit) {
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        Position position = from;
        while (true) {
            Position next = readSegment(partitions, position, limit - page.size(), page);
            boolean segmentDone = next.done().containsAll(partitions);
            if (!segmentDone) {
                return new Page(page, Optional.of(next));
            }
            if (position.segment() + 1 == SEGMENTS) {
                return new Page(page, Optional.empty());
            }
            position = new Position(position.segment() + 1, Map.of(), java.util.Set.of());
            if (page.size() == limit) {
                return new Page(page, Optional.of(position));
            }
        }
    }

    /** Adds up to {@code wanted} items of one segment to {@code page}; the position after them. */
    private Position readSegment(
            List<String> partitions, Position from, int wanted, List<Map<String, AttributeValue>> page) {
        Map<String, Future<Read>> reads = new TreeMap<>();
        for (String partition : partitions) {
            if (!from.done().contains(partition)) {
                String after = from.after().get(partition);
                reads.put(partition, queries.submit(() -> read(partition, from.segment(), after, wanted)));
            }
        }
        List<Map<String, AttributeValue>> merged = new ArrayList<>();
        Map<String, Read> byPartition = new HashMap<>();
        for (Map.Entry<String, Future<Read>> entry : reads.entrySet()) {
            Read read = await(entry.getValue());
            byPartition.put(entry.getKey(), read);
            merged.addAll(read.items());
        }
        merged.sort(Comparator.comparing((Map<String, AttributeValue> i) ->
                        i.get(KeyCodec.SORT_KEY).s())
                .thenComparing(i -> i.get(KeyCodec.PARTITION_KEY).s()));
        List<Map<String, AttributeValue>> taken = merged.subList(0, Math.min(wanted, merged.size()));
        page.addAll(taken);
        Map<String, String> after = new HashMap<>(from.after());
        Map<String, Integer> takenFrom = new HashMap<>();
        for (Map<String, AttributeValue> item : taken) {
            String partition = item.get(KeyCodec.PARTITION_KEY).s();
            after.put(partition, item.get(KeyCodec.SORT_KEY).s());
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
        return new Position(from.segment(), after, done);
    }

    /** Up to {@code wanted} items of one partition's segment after {@code after}, and whether that was all. */
    private record Read(List<Map<String, AttributeValue>> items, boolean exhausted) {}

    private Read read(String partition, int segment, String after, int wanted) {
        KeyCondition condition = KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition);
        condition = segment == 0
                ? condition.sortGreaterThanOrEqualTo(KeyCodec.SORT_KEY, KeyCodec.workspaceSortKey())
                : condition.sortLessThan(KeyCodec.SORT_KEY, KeyCodec.workspaceSortKey());
        Expression expression = condition.build();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = after == null
                ? null
                : Map.of(
                        KeyCodec.PARTITION_KEY,
                        AttributeValue.fromS(partition),
                        KeyCodec.SORT_KEY,
                        AttributeValue.fromS(after));
        do {
            QueryResponse response = client.query(QueryRequest.builder()
                    .tableName(table)
                    .keyConditionExpression(expression.expression())
                    .expressionAttributeNames(expression.names())
                    .expressionAttributeValues(expression.valuesOrNull())
                    .consistentRead(true)
                    .exclusiveStartKey(start)
                    .limit(wanted - items.size())
                    .build());
            items.addAll(response.items());
            start = response.hasLastEvaluatedKey()
                            && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey()
                    : null;
        } while (start != null && items.size() < wanted);
        return new Read(items, start == null);
    }

    @Override
    public void close() {
        queries.shutdownNow();
    }

    private static Read await(Future<Read> read) {
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
