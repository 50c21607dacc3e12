package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.store.exceptions.InvalidCursorException;
import dev.oneread.store.exceptions.StoreUnavailableException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * One page of a list over several partitions (a hot workspace's shards), merged in sort key order.
 *
 * <p>Every partition is queried for {@code limit + 1} items after the page's start, all at once on the async
 * client; the merge emits the first {@code limit}. A partition that returned more than it contributed, or that
 * DynamoDB cut short at 1 MB, bounds what may be emitted: nothing past its last item, or one of its unread
 * items could be skipped. The position of the next page is the last emitted sort key (the same for every
 * partition, since they share the sort key space) plus the partitions already exhausted, which later pages
 * do not query. Items created after the first page sort before the position and so never appear out of order.
 * If any partition fails, the page fails: never a silently partial page.
 */
final class FanOut {
    private static final char EXHAUSTED_SEPARATOR = '|';

    private FanOut() {
    }

    /** Where a page starts: after {@code after} (none on the first page), skipping exhausted partitions. */
    record Position(Optional<String> after, TreeSet<Integer> exhausted) {
        static Position first() {
            return new Position(Optional.empty(), new TreeSet<>());
        }

        /** {@code PROJ#<ulid>} for one partition; {@code PROJ#<ulid>|0,3} when partitions 0 and 3 are done. */
        String encode() {
            String base = after.orElseThrow();
            if (exhausted.isEmpty()) {
                return base;
            }
            StringBuilder out = new StringBuilder(base).append(EXHAUSTED_SEPARATOR);
            exhausted.forEach(i -> out.append(out.charAt(out.length() - 1) == EXHAUSTED_SEPARATOR ? "" : ",").append(i));
            return out.toString();
        }

        /** Parses and checks a position: the sort key must decode, and every index must name a partition. */
        static Position parse(String position, int partitions, Function<String, ?> checkSortKey) {
            int separator = position.indexOf(EXHAUSTED_SEPARATOR);
            String sortKey = separator < 0 ? position : position.substring(0, separator);
            checkSortKey.apply(sortKey);
            TreeSet<Integer> exhausted = new TreeSet<>();
            if (separator >= 0) {
                for (String index : position.substring(separator + 1).split(",")) {
                    if (!index.matches("^[0-9]{1,2}$") || Integer.parseInt(index) >= partitions) {
                        throw new InvalidCursorException(null);
                    }
                    exhausted.add(Integer.parseInt(index));
                }
            }
            return new Position(Optional.of(sortKey), exhausted);
        }
    }

    /** The merged page: items in order, and where the next page starts (empty on the last). */
    record Page(List<Map<String, AttributeValue>> items, Optional<Position> next) {
    }

    /**
     * @param partitions the partitions in a fixed order (their index is what a position remembers)
     * @param request    builds the query of one partition: (partition, start after) to request
     * @param order      the order items are emitted in (descending sort key for newest first)
     */
    static Page run(DynamoDbClient client, DynamoDbAsyncClient asyncClient, List<String> partitions, Position position,
                    int limit, BiFunction<String, Optional<String>, QueryRequest> request, Comparator<String> order,
                    boolean migrating, CallTally tally) {
        Map<Integer, QueryRequest> requests = new LinkedHashMap<>();
        for (int i = 0; i < partitions.size(); i++) {
            if (!position.exhausted().contains(i)) {
                QueryRequest query = request.apply(partitions.get(i), position.after());
                // Mid-migration, a shard must show a copy made just before the source was deleted.
                requests.put(i, ReadAudit.tagged(migrating && i > 0 ? query.toBuilder().consistentRead(true).build()
                        : query, tally));
            }
        }
        Map<Integer, QueryResponse> responses = new LinkedHashMap<>();
        if (migrating && requests.containsKey(0)) {
            // The unsharded partition first, then the shards: a project the source no longer shows was copied
            // before it was deleted there, so the shard queries sent afterwards see it. Queried together, a
            // project moving between the two could be missed by both.
            QueryRequest source = requests.remove(0);
            responses.put(0, Calls.call(() -> client.query(source)));
        }
        responses.putAll(query(client, asyncClient, requests));
        // Merge, keeping per item the partition it came from; the same sort key in two partitions is one item
        // caught mid-move by a migration: the first partition (the workspace's own) holds the current copy.
        Map<String, Integer> source = new LinkedHashMap<>();
        List<Map<String, AttributeValue>> merged = new ArrayList<>();
        Optional<String> bound = Optional.empty();
        for (Map.Entry<Integer, QueryResponse> entry : responses.entrySet()) {
            QueryResponse response = entry.getValue();
            for (Map<String, AttributeValue> item : response.items()) {
                String sortKey = item.get(KeyCodec.SORT_KEY).s();
                if (source.putIfAbsent(sortKey, entry.getKey()) == null) {
                    merged.add(item);
                }
            }
            boolean more = response.items().size() > limit
                    || response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty();
            if (more && !response.items().isEmpty()) {
                String last = response.items().get(response.items().size() - 1).get(KeyCodec.SORT_KEY).s();
                bound = bound.isEmpty() || order.compare(last, bound.get()) < 0 ? Optional.of(last) : bound;
            }
        }
        merged.sort(Comparator.comparing(item -> item.get(KeyCodec.SORT_KEY).s(), order));
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        for (Map<String, AttributeValue> item : merged) {
            String sortKey = item.get(KeyCodec.SORT_KEY).s();
            boolean withinBound = bound.isEmpty() || order.compare(sortKey, bound.get()) <= 0;
            if (page.size() == limit || !withinBound) {
                break;
            }
            page.add(item);
        }
        if (page.size() == merged.size() && bound.isEmpty()) {
            return new Page(page, Optional.empty());
        }
        if (page.isEmpty()) {
            // Only possible when a partition was cut at 1 MB before its first item: resume where DynamoDB said.
            throw new StoreUnavailableException(null);
        }
        String lastEmitted = page.get(page.size() - 1).get(KeyCodec.SORT_KEY).s();
        TreeSet<Integer> exhausted = new TreeSet<>(position.exhausted());
        for (Map.Entry<Integer, QueryResponse> entry : responses.entrySet()) {
            QueryResponse response = entry.getValue();
            boolean more = response.items().size() > limit
                    || response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty();
            boolean allEmitted = response.items().isEmpty() || order.compare(
                    response.items().get(response.items().size() - 1).get(KeyCodec.SORT_KEY).s(), lastEmitted) <= 0;
            // Mid-migration a shard can still receive moved projects below the position, so only the source
            // (which projects only ever leave) may be skipped from now on.
            if (!more && allEmitted && (!migrating || entry.getKey() == 0)) {
                exhausted.add(entry.getKey());
            }
        }
        if (exhausted.size() == partitions.size()) {
            return new Page(page, Optional.empty());
        }
        return new Page(page, Optional.of(new Position(Optional.of(lastEmitted), exhausted)));
    }

    /** One partition: one call on the sync client. Several: all at once on the async client. */
    private static Map<Integer, QueryResponse> query(DynamoDbClient client, DynamoDbAsyncClient asyncClient,
                                                     Map<Integer, QueryRequest> requests) {
        Map<Integer, QueryResponse> responses = new LinkedHashMap<>();
        if (requests.size() == 1 || asyncClient == null) {
            requests.forEach((i, r) -> responses.put(i, Calls.call(() -> client.query(r))));
            return responses;
        }
        Map<Integer, CompletableFuture<QueryResponse>> futures = new LinkedHashMap<>();
        requests.forEach((i, r) -> futures.put(i, asyncClient.query(r)));
        try {
            CompletableFuture.allOf(futures.values().toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            futures.values().forEach(f -> f.cancel(true));
            // Translated like any sync failure; a shard that failed fails the page (503), never a partial one.
            Calls.call(() -> {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            });
            throw new StoreUnavailableException(e);
        }
        futures.forEach((i, f) -> responses.put(i, f.join()));
        return responses;
    }
}
