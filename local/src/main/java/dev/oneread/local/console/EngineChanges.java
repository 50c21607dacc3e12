package dev.oneread.local.console;

import dev.oneread.json.Json;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.local.runner.IamFront;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.store.items.DynamoJson;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The engine's change feed ({@code GET /_oneread/changes}, DynamoDB Streams' NEW_AND_OLD_IMAGES view of every
 * write the local engine served), followed by the console: every {@link #TICK}, and at once when the request log
 * asks ({@link #catchUp()}). So every write on the engine reaches the open consoles, whoever made it: start-api,
 * {@code invoke}, {@code seed}, the aws CLI. Each catch-up that read writes to the console's table tells the
 * listeners (the table copy first) and publishes ONE {@code changed} event, however many records it read.
 *
 * <p>Another engine (DYNAMODB_ENDPOINT at DynamoDB Local, say) serves no feed: then this is {@link #available()
 * unavailable}, and the console does as before the feed (a consistent read of each item a request wrote).
 *
 * <pre>{@code EngineChanges changes = new EngineChanges(engine, table, events, onGap, out); changes.start();}</pre>
 */
final class EngineChanges implements AutoCloseable {
    /** Where the engine serves its feed, on its own port. */
    static final String PATH = "/_oneread/changes";

    static final Duration TICK = Duration.ofMillis(100);
    /** The records kept here for the request log's diffs: as many as the engine keeps. */
    static final int KEPT = 10_000;
    /** Records asked for per read: the engine's largest page. */
    private static final int PAGE = 1_000;
    /**
     * The request log reads a request's writes when it ends: while start-api serves requests, the poller leaves
     * their writes to it, so that one request makes one event, not two (unless writes wait longer than
     * {@link #LONGEST_WAIT_MILLIS}, as under a steady load, when one event a tick is what the page can take). Writes
     * of other processes (invoke, seed, the aws CLI) come one call at a time: the poller leaves those younger than
     * {@link #SETTLE_MILLIS} to come together with the ones that follow.
     */
    private static final long SETTLE_MILLIS = 50;

    private static final long LONGEST_WAIT_MILLIS = 1_000;
    /** After the engine served no feed (not oneread's engine, or gone), ask again this much later. */
    private static final Duration RETRY_AFTER_FAILURE = Duration.ofSeconds(10);

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /**
     * One write to the console's table, as the feed recorded it. {@code eventName} is INSERT, MODIFY or REMOVE;
     * unlike DynamoDB Streams, the engine records a write that changed nothing too (a delete where there was no
     * item: REMOVE with both images null), so count items by the images, not by the name. {@code signer} is the
     * access key the write was signed with (null: unsigned, or an engine that does not say), {@code request} the
     * engine's number of the call that made it (a batch's writes share it), {@code units} the write units it
     * consumed (null when not said).
     */
    record Change(
            long seq,
            long at,
            String operation,
            String eventName,
            PrimaryKey key,
            Map<String, AttributeValue> oldItem,
            Map<String, AttributeValue> newItem,
            String signer,
            long request,
            Double units) {
        String partition() {
            return key.partition();
        }

        String sort() {
            return key.sort();
        }

        /**
         * Made by neither start-api's functions (each signs with its own key, which names it) nor oneread's own
         * tools (the console, seed, import: they sign as {@link DynamoDbClients#LOCAL_ACCESS_KEY_ID} and log what
         * they write themselves): the aws CLI, an SDK, a pasted snippet. The request log shows these as the
         * engine's own entries.
         */
        boolean engineOrigin() {
            return !IamFront.namesFunction(signer) && !DynamoDbClients.LOCAL_ACCESS_KEY_ID.equals(signer);
        }
    }

    private final URI feed;
    private final String table;
    private final ConsoleEvents events;
    private final Runnable onGap;
    private final PrintStream out;
    private final HttpClient http;
    private final List<Consumer<List<Change>>> listeners = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "console-changes");
        thread.setDaemon(true);
        return thread;
    });

    // Guarded by this: one catch-up at a time, so each record is read and published once.
    private final Deque<Change> kept = new ArrayDeque<>();
    /** The last sequence number read; -1 until the first read places this at the feed's end. */
    private long last = -1;

    private long retryNanos;
    private volatile boolean available;
    /** Requests start-api is serving now, whose writes their own catch-up will read when they end. */
    private final java.util.concurrent.atomic.AtomicInteger serving = new java.util.concurrent.atomic.AtomicInteger();

    /**
     * @param engine where the engine serves its feed
     * @param onGap what to do when records were missed (the engine dropped them before they were read): reload
     */
    EngineChanges(URI engine, String table, ConsoleEvents events, Runnable onGap, PrintStream out) {
        this.feed = engine.resolve(PATH);
        this.table = table;
        this.events = events;
        this.onGap = onGap;
        this.out = out;
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    /** Is told of every catch-up's changes to the console's table, in feed order, before its event goes out. */
    void listen(Consumer<List<Change>> listener) {
        listeners.add(listener);
    }

    /**
     * Takes the feed's place now (what came before is in the table already, which the console reads whole), then
     * follows it every {@link #TICK}.
     */
    void start() {
        catchUp();
        timer.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A request is being served: the poller leaves its writes to the catch-up that ends it. */
    void requestBegins() {
        serving.incrementAndGet();
    }

    void requestEnds() {
        serving.decrementAndGet();
    }

    /** True while the engine serves a feed this follows. */
    boolean available() {
        return available;
    }

    private void tick() {
        try {
            catchUp(true);
        } catch (RuntimeException e) {
            // The timer stops for good on an exception: log it and keep polling.
            out.println("console: changes: " + e);
        }
    }

    /**
     * Reads every record the engine has that this has not, tells the listeners and publishes one {@code changed}
     * event for those on the console's table. False when the engine serves no feed.
     */
    synchronized boolean catchUp() {
        return catchUp(false);
    }

    private synchronized boolean catchUp(boolean settle) {
        long now = System.nanoTime();
        if (!available && retryNanos != 0 && now < retryNanos) {
            return false;
        }
        List<Change> read = new ArrayList<>();
        try {
            for (boolean firstPage = true; ; firstPage = false) {
                Map<String, Object> page = page(Math.max(last, 0), last < 0 ? 1 : PAGE);
                long first = number(page.get("first"));
                long newest = number(page.get("last"));
                if (last < 0 || newest < last) {
                    // The first read, or an engine restarted under the console: start at its end.
                    boolean restarted = last >= 0;
                    last = newest;
                    kept.clear();
                    if (restarted) {
                        onGap.run();
                    }
                    break;
                }
                if (first > last + 1) {
                    // The engine dropped records before they were read: the table copy may be wrong. Read it again.
                    onGap.run();
                }
                List<?> records = page.get("records") instanceof List<?> l ? l : List.of();
                if (settle && firstPage && unsettled(records)) {
                    return true;
                }
                for (Object record : records) {
                    Map<String, Object> r = map(record);
                    last = number(r.get("seq"));
                    if (table.equals(r.get("table"))) {
                        read.add(change(r));
                    }
                }
                if (records.size() < PAGE || last >= newest) {
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            if (available || retryNanos == 0) {
                out.println("console: changes: the engine serves no change feed (" + e.getMessage()
                        + "); the console reads each written item instead");
            }
            available = false;
            retryNanos = now + RETRY_AFTER_FAILURE.toNanos();
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return available;
        }
        available = true;
        if (!read.isEmpty()) {
            read.forEach(this::keep);
            List<Change> changes = List.copyOf(read);
            listeners.forEach(l -> l.accept(changes));
            events.publish("changed", changedEvent(changes));
        }
        return true;
    }

    /**
     * The changes to {@code key} recorded at or after {@code sinceMillis}, oldest first: the writes of a request
     * that began then.
     */
    synchronized List<Change> changesOf(PrimaryKey key, long sinceMillis) {
        List<Change> out = new ArrayList<>();
        for (Iterator<Change> it = kept.descendingIterator(); it.hasNext(); ) {
            Change c = it.next();
            if (c.at() < sinceMillis) {
                break;
            }
            if (c.key().equals(key) && !c.engineOrigin()) {
                out.add(0, c);
            }
        }
        return out;
    }

    /**
     * True while {@code records} may be the first writes of more to come (a request being served, or the newest
     * younger than the settling time), unless the oldest has waited long enough.
     */
    private boolean unsettled(List<?> records) {
        if (records.isEmpty()) {
            return false;
        }
        long now = System.currentTimeMillis();
        long oldest = number(map(records.get(0)).get("at"));
        long newest = number(map(records.get(records.size() - 1)).get("at"));
        return (serving.get() > 0 || now - newest < SETTLE_MILLIS) && now - oldest < LONGEST_WAIT_MILLIS;
    }

    private void keep(Change change) {
        kept.addLast(change);
        while (kept.size() > KEPT) {
            kept.removeFirst();
        }
    }

    /**
     * The {@code changed} event of one catch-up: the partitions and tenants written, and each item written with
     * its row as the collection shows it (null when it is gone), the last write of an item winning.
     */
    static Map<String, Object> changedEvent(List<Change> changes) {
        Set<String> partitions = new LinkedHashSet<>();
        Map<PrimaryKey, Change> latest = new LinkedHashMap<>();
        for (Change c : changes) {
            partitions.add(c.partition());
            latest.remove(c.key());
            latest.put(c.key(), c);
        }
        List<Map<String, Object>> items = new ArrayList<>();
        for (Change c : latest.values()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("partition", c.partition());
            item.put("sort", c.sort());
            item.put("row", c.newItem() == null ? null : ItemRows.row(c.newItem()));
            items.add(item);
        }
        return RequestLog.changedEvent(partitions, items);
    }

    private Map<String, Object> page(long after, int limit) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(feed + "?after=" + after + "&limit=" + limit))
                        .timeout(TIMEOUT)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("it answered " + response.statusCode() + " for " + PATH);
        }
        Map<String, Object> page = Json.readObject(response.body());
        if (!(page.get("last") instanceof Number) || !(page.get("first") instanceof Number)) {
            throw new IOException("its answer for " + PATH + " is not a change feed");
        }
        return page;
    }

    private static Change change(Map<String, Object> r) {
        Map<String, AttributeValue> keys = DynamoJson.toItem(r.get("keys"));
        return new Change(
                number(r.get("seq")),
                number(r.get("at")),
                (String) r.get("operation"),
                (String) r.get("eventName"),
                TableMirror.keyOf(keys),
                r.get("oldImage") == null ? null : DynamoJson.toItem(r.get("oldImage")),
                r.get("newImage") == null ? null : DynamoJson.toItem(r.get("newImage")),
                r.get("signer") instanceof String signer ? signer : null,
                number(r.get("request")),
                r.get("units") instanceof Number units ? units.doubleValue() : null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : 0;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
