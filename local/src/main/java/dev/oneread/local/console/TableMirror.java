package dev.oneread.local.console;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.store.items.ItemSize;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * What the console knows of the local table, in bounded memory: each partition's counts ({@link PartitionStats}),
 * and the last {@value #SEEN} items it read or saw written (the "before" of a write's diff). A paginated Scan
 * counts the table once, in the background, when the console starts (or on Rescan); after that each write the
 * console sees moves the counts by its before and after. A write whose before the console cannot know (an item
 * it never saw, or has forgotten) has its partition counted again in the background, with a Query. With the
 * engine's change feed ({@link #apply(List)}), every write's images arrive, whoever made it.
 *
 * <p>It reads the engine directly, with the runner's own client: a developer tool, never a request path; and no
 * request path of the console scans: only the count, on its own thread, and a fixture export do.
 */
final class TableMirror implements AutoCloseable {
    /** Items remembered for diffs: about 20 MB at the API's largest items, whatever the table holds. */
    static final int SEEN = 20_000;

    private final DynamoDbClient client;
    private final String table;
    private final PartitionStats stats = new PartitionStats();
    /** Key to the item as last seen, or to {@link #ABSENT} when the console saw that there was none. */
    private final Map<PrimaryKey, Map<String, AttributeValue>> seen = new LinkedHashMap<>(1_024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<PrimaryKey, Map<String, AttributeValue>> eldest) {
            return size() > SEEN;
        }
    };

    private static final Map<String, AttributeValue> ABSENT = Map.of();
    /** Partitions to count again (their counts are not known to be exact), in the order they were found so. */
    private final Set<String> stale = new LinkedHashSet<>();
    /** Partitions being counted now (all of them during a full count): a write there makes them stale again. */
    private final Set<String> counting = new java.util.HashSet<>();

    private boolean countingAll;
    /** When the last full count ended, and when each partition counted again since then was. */
    private Instant fullCountEndedAt;

    private final Map<String, Instant> countedAt = new HashMap<>();
    private Thread countingThread;
    private boolean closed;
    private boolean countRequested;
    /** Full counts asked for by Rescan, and how many of those the counts that ended covered. */
    private long countsAsked;

    private long countsEnded;
    private long countStartedNanos;
    /** How long the last full count took, in milliseconds; -1 before the first one ends. */
    private long lastCountMillis = -1;

    /** True while the engine's change feed moves the counts ({@link #apply(List)}): writes seen otherwise do not. */
    private volatile java.util.function.BooleanSupplier fed = () -> false;

    TableMirror(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    String table() {
        return table;
    }

    DynamoDbClient client() {
        return client;
    }

    PartitionStats stats() {
        return stats;
    }

    /** Whether a full count is under way (or asked for): the counts then are what it has reached so far. */
    synchronized boolean isCounting() {
        return countingAll || countRequested;
    }

    /** How long the last full count took in milliseconds, or -1 while the first one runs. */
    synchronized long lastCountMillis() {
        return lastCountMillis;
    }

    /**
     * Counts the whole table again (a paginated, consistent Scan), publishing the counts page by page, then
     * counts again the partitions written meanwhile; the number of items counted.
     */
    private int reload() {
        Map<String, Counter> counted = new HashMap<>();
        synchronized (this) {
            countingAll = true;
            countStartedNanos = System.nanoTime();
            stale.clear();
            stats.partitions().clear();
        }
        int[] items = {0};
        scanPages(page -> {
            Set<String> touched = new java.util.HashSet<>();
            for (Map<String, AttributeValue> item : page) {
                String partition = keyOf(item).partition();
                counted.computeIfAbsent(partition, p -> new Counter()).add(item);
                touched.add(partition);
            }
            items[0] += page.size();
            touched.forEach(p -> stats.replace(p, counted.get(p).counts()));
        });
        synchronized (this) {
            countingAll = false;
            lastCountMillis = (System.nanoTime() - countStartedNanos) / 1_000_000;
            fullCountEndedAt = Instant.now();
            countedAt.clear();
        }
        recountStale();
        return items[0];
    }

    /** Every item of the table, page by page (a consistent Scan): for a fixture export. */
    void scan(Consumer<Map<String, AttributeValue>> each) {
        scanPages(page -> page.forEach(each));
    }

    private void scanPages(Consumer<java.util.List<Map<String, AttributeValue>>> each) {
        Map<String, AttributeValue> start = null;
        do {
            ScanResponse page = client.scan(ScanRequest.builder()
                    .tableName(table)
                    .consistentRead(true)
                    .exclusiveStartKey(start)
                    .build());
            each.accept(page.items());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    /** The item as the console last saw it; null when it saw none, or saw it too long ago to remember. */
    Map<String, AttributeValue> lastSeen(PrimaryKey key) {
        synchronized (seen) {
            Map<String, AttributeValue> item = seen.get(key);
            return item == null || item == ABSENT ? null : item;
        }
    }

    /** Reads the item now (consistent GetItem) and keeps what it read: the "after" of a write. */
    Map<String, AttributeValue> refresh(PrimaryKey key) {
        return refresh(key, null, false);
    }

    /**
     * As {@link #refresh(PrimaryKey)}, for a write made by a request that started at {@code requestedAt} (null:
     * just now), and that succeeded only where no item was when {@code createdWhereNone}: its before is none.
     */
    Map<String, AttributeValue> refresh(PrimaryKey key, Instant requestedAt, boolean createdWhereNone) {
        // One refresh at a time: two writes to one key read out of order must not count in the wrong order.
        synchronized (seen) {
            if (createdWhereNone) {
                seen.putIfAbsent(key, ABSENT);
            }
            Map<String, AttributeValue> item = client.getItem(GetItemRequest.builder()
                            .tableName(table)
                            .key(keyOf(key))
                            .consistentRead(true)
                            .build())
                    .item();
            Map<String, AttributeValue> after = item == null || item.isEmpty() ? null : item;
            observe(key, after, requestedAt);
            return after;
        }
    }

    /** An item the console wrote, as it is now (the counts follow). */
    void put(Map<String, AttributeValue> item) {
        synchronized (seen) {
            observe(keyOf(item), item, null);
        }
    }

    /**
     * An item the console read: remembered for a later write's diff unless a write seen since is newer (a read
     * can end after a write that it did not see).
     */
    void remember(Map<String, AttributeValue> item) {
        synchronized (seen) {
            seen.putIfAbsent(keyOf(item), item);
        }
    }

    /**
     * Remembers the item as it is now and moves the counts from what the console saw before, or, when it cannot
     * know the before, has the partition counted again. When the engine's change feed calls
     * {@link #apply(String, Map, Map)} with every write, this is where the counts must stop moving, or each
     * write counts twice.
     */
    private void observe(PrimaryKey key, Map<String, AttributeValue> after, Instant requestedAt) {
        Map<String, AttributeValue> before = seen.put(key, after == null ? ABSENT : after);
        if (fed.getAsBoolean()) {
            return; // the feed brings this write's images too, and moves the counts by them: once
        }
        if (before == null || countedSince(key.partition(), requestedAt)) {
            markStale(key.partition());
        } else {
            apply(key.partition(), before == ABSENT ? null : before, after);
        }
    }

    /** Has the counts follow the engine's change feed while {@code available} says it serves one. */
    void followFeed(java.util.function.BooleanSupplier available) {
        this.fed = available;
    }

    /**
     * The engine's change feed, in its order: each write's images move the counts, and its after is remembered as
     * the item's last seen state (so a refresh of the same write later moves nothing).
     */
    void apply(List<EngineChanges.Change> changes) {
        for (EngineChanges.Change change : changes) {
            synchronized (seen) {
                seen.put(change.key(), change.newItem() == null ? ABSENT : change.newItem());
            }
            apply(change.partition(), change.oldItem(), change.newItem());
        }
    }

    /**
     * One write's images: {@code oldItem} before it (null: none), {@code newItem} after it (null: deleted). While
     * its partition is being counted, the count may or may not have read the write, so the partition is counted
     * again instead.
     */
    void apply(String partition, Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem) {
        synchronized (this) {
            if (countingAll || counting.contains(partition)) {
                markStale(partition);
                return;
            }
            stats.apply(partition, oldItem, newItem);
        }
    }

    /**
     * Whether a count of the partition ended after the request began: it may have read the write already, so
     * moving the counts by it could count it twice.
     */
    private synchronized boolean countedSince(String partition, Instant requestedAt) {
        if (requestedAt == null) {
            return false;
        }
        Instant partitionCounted = countedAt.get(partition);
        return (fullCountEndedAt != null && fullCountEndedAt.isAfter(requestedAt))
                || (partitionCounted != null && partitionCounted.isAfter(requestedAt));
    }

    private synchronized void markStale(String partition) {
        stale.add(partition);
        notifyAll();
    }

    /** Counts the stale partitions again, one Query each, until none is left. */
    private void recountStale() {
        while (true) {
            String partition;
            synchronized (this) {
                if (stale.isEmpty() || countingAll) {
                    return;
                }
                partition = stale.iterator().next();
                stale.remove(partition);
                counting.add(partition);
            }
            try {
                Counter counter = new Counter();
                readPartition(partition, counter::add);
                synchronized (this) {
                    stats.replace(partition, counter.counts());
                    countedAt.put(partition, Instant.now());
                }
            } finally {
                synchronized (this) {
                    counting.remove(partition);
                }
            }
        }
    }

    /**
     * Starts the thread that counts: the whole table now and on each {@link #recount(long)}, {@code counted}
     * told the items and milliseconds of each full count; between counts, the stale partitions.
     */
    void startCounting(java.io.PrintStream out, java.util.function.BiConsumer<Integer, Long> counted) {
        synchronized (this) {
            countRequested = true;
        }
        Thread thread = new Thread(
                () -> {
                    while (true) {
                        try {
                            boolean full;
                            synchronized (this) {
                                while (!closed && !countRequested && stale.isEmpty()) {
                                    wait();
                                }
                                if (closed) {
                                    return;
                                }
                                full = countRequested;
                                countRequested = false;
                            }
                            if (full) {
                                long asked;
                                synchronized (this) {
                                    asked = countsAsked;
                                }
                                int items = reload();
                                counted.accept(items, lastCountMillis());
                                synchronized (this) {
                                    countsEnded = Math.max(countsEnded, asked);
                                    notifyAll();
                                }
                            } else {
                                recountStale();
                            }
                        } catch (InterruptedException e) {
                            return;
                        } catch (RuntimeException e) {
                            // The engine went away or refused a read: the next request or write tries again.
                            synchronized (this) {
                                countingAll = false;
                                if (closed) {
                                    return;
                                }
                            }
                            out.println("console: counting the table failed: " + e);
                        }
                    }
                },
                "console-count");
        thread.setDaemon(true);
        synchronized (this) {
            countingThread = thread;
        }
        thread.start();
    }

    /** Stops the counting thread (a count under way ends at its next page). */
    @Override
    public synchronized void close() {
        closed = true;
        notifyAll();
        if (countingThread != null) {
            countingThread.interrupt();
        }
    }

    /**
     * Asks the counting thread for a full count (Rescan), and waits up to {@code millis} for it; whether it ended
     * (its "reloaded" event then told before this returns).
     */
    synchronized boolean recount(long millis) throws InterruptedException {
        long asked = ++countsAsked;
        countRequested = true;
        notifyAll();
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (countsEnded < asked) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** Every item of one partition, page by page, in sort-key order (consistent Queries). */
    private void readPartition(String partition, Consumer<Map<String, AttributeValue>> each) {
        Expression condition =
                KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition).build();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = client.query(QueryRequest.builder()
                    .tableName(table)
                    .keyConditionExpression(condition.expression())
                    .expressionAttributeNames(condition.names())
                    .expressionAttributeValues(condition.valuesOrNull())
                    .consistentRead(true)
                    .exclusiveStartKey(start)
                    .build());
            page.items().forEach(each);
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    /** A partition's counts as a count adds them up, item by item, without copying them at each item. */
    private static final class Counter {
        private long items;
        private long bytes;
        private final Map<String, Long> index = new TreeMap<>();
        private final SortMarks.Builder marks = new SortMarks.Builder();

        void add(Map<String, AttributeValue> item) {
            items++;
            marks.add(item.get(KeyCodec.SORT_KEY).s());
            bytes += ItemSize.bytes(item);
            AttributeValue pk = item.get(KeyCodec.INDEX_PARTITION_KEY);
            if (pk != null && pk.s() != null) {
                index.merge(pk.s(), 1L, Long::sum);
            }
        }

        PartitionStats.Counts counts() {
            return new PartitionStats.Counts(items, bytes, index, marks.build());
        }
    }

    static PrimaryKey keyOf(Map<String, AttributeValue> item) {
        return new PrimaryKey(
                item.get(KeyCodec.PARTITION_KEY).s(),
                item.get(KeyCodec.SORT_KEY).s());
    }

    static Map<String, AttributeValue> keyOf(PrimaryKey key) {
        return Map.of(
                KeyCodec.PARTITION_KEY,
                AttributeValue.fromS(key.partition()),
                KeyCodec.SORT_KEY,
                AttributeValue.fromS(key.sort()));
    }
}
