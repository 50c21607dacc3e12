package dev.oneread.local.console;

import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import dev.oneread.local.runner.ServedRequest;
import dev.oneread.model.DynamoDbNumber;
import dev.oneread.operations.CostBudget;
import dev.oneread.operations.Descriptor;
import dev.oneread.operations.Operation;
import dev.oneread.operations.Operations;
import dev.oneread.store.items.DynamoJson;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every request start-api served (and every one {@code invoke} ran on its engine), newest first, with the DynamoDB
 * calls its function handed over: their totals next to the response's {@code X-Dynamo-*} headers, the route's
 * {@link CostBudget}, the items each call touched, and for each write call the item before and after that call.
 * It tells {@link ConsoleEvents} of each entry; the engine's change feed ({@link EngineChanges}) tells open consoles
 * what changed, or, from an engine without one, this does, from its own reads of the written items.
 */
final class RequestLog implements ServedRequest.Observer {
    /** The most entries kept: older ones fall off, as in a terminal's scrollback. */
    static final int CAPACITY = 2_000;

    private static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "DeleteItem");

    private final TableMirror mirror;
    /** The running configuration's shard plan, read at each use: a deploy changes it. */
    private final Supplier<ShardPlan> plan;

    private final ConsoleEvents events;
    private final EngineChanges changes;
    private final Deque<Map<String, Object>> entries = new ArrayDeque<>();
    private final AtomicLong sequence = new AtomicLong();

    RequestLog(TableMirror mirror, Supplier<ShardPlan> plan, ConsoleEvents events, EngineChanges changes) {
        this.mirror = mirror;
        this.plan = plan;
        this.events = events;
        this.changes = changes;
    }

    @Override
    public void invoking() {
        changes.requestBegins();
    }

    @Override
    public void abandoned() {
        changes.requestEnds();
    }

    @Override
    public void served(ServedRequest request) {
        try {
            served(request, null);
        } finally {
            changes.requestEnds();
        }
    }

    /** A request another process served on this engine ({@code source}: {@code invoke}), logged as start-api's. */
    void served(ServedRequest request, String source) {
        Map<String, Object> entry;
        // Without the feed: each key written, with its row as the write left it (null once deleted), last write wins.
        Map<PrimaryKey, Map<String, Object>> changed = new LinkedHashMap<>();
        try {
            entry = entry(request, changed);
            if (source != null) {
                entry.put("source", source);
            }
        } catch (RuntimeException e) {
            // The console must never break the API it watches: a request it cannot read is logged as such.
            entry = new LinkedHashMap<>();
            entry.put("id", sequence.incrementAndGet());
            entry.put("method", request.method());
            entry.put("path", request.path());
            entry.put("status", request.status());
            entry.put("consoleError", "the console could not read this request's calls");
        }
        add(entry, changed);
    }

    /**
     * Logs what the console itself did to the table (an edit, a duplicate, a delete), as an entry of its own with
     * {@code source} "console": its calls, their totals and each write's diff, as a served request's.
     *
     * @param problem the title and detail of a refusal; empty when it succeeded
     */
    void console(ConsoleAction action, List<Map<String, Object>> calls, Optional<Map<String, Object>> problem) {
        Map<PrimaryKey, Map<String, Object>> changed = new LinkedHashMap<>();
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", sequence.incrementAndGet());
        entry.put("at", action.at().toString());
        entry.put("source", "console");
        entry.put("method", action.method());
        entry.put("path", action.path());
        entry.put("function", "console");
        entry.put("route", "console " + action.name());
        entry.put("workspace", action.workspace());
        entry.put("status", action.status());
        entry.put("durationMs", Math.round(action.durationMs() * 10) / 10.0);
        BigDecimal capacity = withCalls(entry, calls, action.at(), changed);
        // No function answered, so no X-Dynamo-* headers: the console's own answer carries the same totals.
        entry.put("headers", Map.of("calls", String.valueOf(calls.size()), "capacity", plain(capacity)));
        entry.put("agree", true);
        problem.ifPresent(p -> entry.put("problem", p));
        add(entry, changed);
    }

    /** One action of the console on the table, as its log entry describes it. */
    record ConsoleAction(
            String name, String method, String path, String workspace, int status, Instant at, double durationMs) {}

    /** Logs an entry, and without the feed, tells the consoles what its writes changed. */
    private void add(Map<String, Object> entry, Map<PrimaryKey, Map<String, Object>> changed) {
        add(entry);
        if (!changed.isEmpty()) {
            Set<String> partitions = new LinkedHashSet<>();
            List<Map<String, Object>> items = new ArrayList<>();
            changed.forEach((key, row) -> {
                partitions.add(key.partition());
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("partition", key.partition());
                item.put("sort", key.sort());
                item.put("row", row);
                items.add(item);
            });
            events.publish("changed", changedEvent(partitions, items));
        }
    }

    /**
     * One entry for what a tool wrote without a request ({@code source}: {@code seed}, {@code import}): its items
     * show through the change feed, this says where they came from.
     */
    void wrote(String source, int items, String detail) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", sequence.incrementAndGet());
        entry.put("at", java.time.Instant.now().toString());
        entry.put("source", source);
        entry.put("method", source);
        entry.put("path", detail);
        entry.put("items", items);
        entry.put("totals", Map.of("calls", 0, "capacity", "0"));
        entry.put("calls", List.of());
        entry.put("writes", List.of());
        entry.put("touched", List.of());
        add(entry);
    }

    /**
     * Logs the writes the engine served to other clients (the aws CLI, an SDK: {@link EngineChanges.Change#engineOrigin})
     * as entries of their own, {@code source} "engine", one per call (a batch's items together): the operation, the
     * keys, each write's diff from the feed's images, and the units the engine charged. start-api's requests and the
     * console's actions log their writes themselves, so none is shown twice. Told of each catch-up of the feed.
     */
    void engineWrites(List<EngineChanges.Change> changes) {
        Map<Long, List<EngineChanges.Change>> byCall = new LinkedHashMap<>();
        for (EngineChanges.Change c : changes) {
            if (c.engineOrigin()) {
                byCall.computeIfAbsent(c.request(), r -> new ArrayList<>()).add(c);
            }
        }
        byCall.values().forEach(call -> add(engineEntry(call)));
    }

    private Map<String, Object> engineEntry(List<EngineChanges.Change> call) {
        EngineChanges.Change first = call.get(0);
        List<Map<String, Object>> touched = new ArrayList<>();
        List<Map<String, Object>> writes = new ArrayList<>();
        BigDecimal capacity = BigDecimal.ZERO;
        boolean charged = true;
        for (EngineChanges.Change c : call) {
            if (c.units() != null) {
                capacity = capacity.add(BigDecimal.valueOf(c.units()));
            } else {
                charged = false;
            }
            touched.add(Map.of("partition", c.partition(), "sort", c.sort()));
            writes.add(diff(c.key(), c.operation(), c.oldItem(), c.newItem()));
        }
        String total = charged ? plain(capacity) : "unknown";
        // One call: a batch's items are its writes (as the feed saw them), not calls of their own.
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("operation", first.operation());
        if (call.size() == 1) {
            one.put("key", DynamoJson.item(keyItem(first.key())));
        } else {
            one.put("items", call.size());
        }
        one.put("capacity", total);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", sequence.incrementAndGet());
        entry.put("at", Instant.ofEpochMilli(first.at()).toString());
        entry.put("source", ENGINE_SOURCE);
        entry.put("origin", ENGINE_SOURCE);
        entry.put("signer", first.signer());
        entry.put("method", first.operation());
        entry.put(
                "path",
                call.size() == 1
                        ? first.partition() + " " + first.sort()
                        : first.partition() + " " + first.sort() + " and " + (call.size() - 1) + " more");
        entry.put("route", ENGINE_SOURCE + " " + first.operation());
        entry.put("workspace", ItemRows.place(first.partition()).tenant());
        entry.put("status", OK);
        entry.put("calls", List.of(one));
        entry.put("totals", Map.of("calls", 1, "capacity", total));
        entry.put("headers", Map.of("calls", "1", "capacity", total));
        entry.put("agree", true);
        entry.put("touched", touched);
        entry.put("writes", writes);
        return entry;
    }

    /** The source of an entry for what another client wrote on the engine. */
    static final String ENGINE_SOURCE = "engine";

    private static final int OK = 200;

    private static Map<String, AttributeValue> keyItem(PrimaryKey key) {
        return Map.of(
                KeyCodec.PARTITION_KEY, AttributeValue.fromS(key.partition()),
                KeyCodec.SORT_KEY, AttributeValue.fromS(key.sort()));
    }

    private void add(Map<String, Object> entry) {
        synchronized (entries) {
            entries.addFirst(entry);
            while (entries.size() > CAPACITY) {
                entries.removeLast();
            }
        }
        events.publish("request", entry);
    }

    /**
     * A {@code changed} event: the partitions written and their tenants (a console showing a whole tenant reloads
     * only for its own tenant's writes, and a write can land on a shard partition the console has not listed yet),
     * and each item written with its row as the write left it ({@code items}: the open collection applies them in
     * place instead of fetching itself again).
     */
    static Map<String, Object> changedEvent(Set<String> partitions, List<Map<String, Object>> items) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("partitions", List.copyOf(partitions));
        event.put(
                "tenants",
                partitions.stream()
                        .map(p -> ItemRows.place(p).tenant())
                        .distinct()
                        .toList());
        if (items != null) {
            event.put("items", items);
        }
        return event;
    }

    List<Map<String, Object>> newestFirst() {
        synchronized (entries) {
            return List.copyOf(entries);
        }
    }

    void clear() {
        synchronized (entries) {
            entries.clear();
        }
        events.publish("cleared", Map.of());
    }

    /** The log as JSON lines, oldest first, as a file someone replays or greps. */
    String jsonLines() {
        List<Map<String, Object>> all = new ArrayList<>(newestFirst());
        java.util.Collections.reverse(all);
        StringBuilder out = new StringBuilder();
        all.forEach(e -> out.append(Json.write(e)).append('\n'));
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> entry(ServedRequest request, Map<PrimaryKey, Map<String, Object>> changed) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", sequence.incrementAndGet());
        entry.put("at", request.at().toString());
        entry.put("method", request.method());
        entry.put("path", request.path());
        entry.put("function", request.function());
        entry.put("route", request.routeKey());
        entry.put("workspace", request.pathParameters().get("workspaceId"));
        entry.put("status", request.status());
        entry.put("durationMs", Math.round(request.durationMs() * 10) / 10.0);
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("calls", request.responseHeaders().get("x-dynamo-calls"));
        headers.put("capacity", request.responseHeaders().get("x-dynamo-capacity"));
        entry.put("headers", headers);
        List<Map<String, Object>> calls = request.callDetail() == null
                ? List.of()
                : labelLocalOnly((List<Map<String, Object>>)
                        Json.readObject(request.callDetail()).get("calls"));
        String capacityText = plain(withCalls(entry, calls, request.at(), changed));
        entry.put(
                "agree",
                String.valueOf(calls.size()).equals(headers.get("calls"))
                        && capacityText.equals(headers.get("capacity")));
        // The budget is DynamoDB's: what only the local engine makes it make is not held against it.
        budget(
                        request,
                        (int) calls.stream()
                                .filter(c -> !c.containsKey(LOCAL_ONLY))
                                .count(),
                        capacity(calls, true))
                .ifPresent(b -> entry.put("budget", b));
        problem(request.errorBody()).ifPresent(p -> entry.put("problem", p));
        return entry;
    }

    /**
     * Puts the calls of a request (or a console action) that began at {@code began} into its entry, with their
     * totals, the items they touched and each write's diff; the capacity they consumed. Without the feed, each item
     * written goes to {@code changed} with its row.
     */
    @SuppressWarnings("unchecked")
    private BigDecimal withCalls(
            Map<String, Object> entry,
            List<Map<String, Object>> calls,
            Instant began,
            Map<PrimaryKey, Map<String, Object>> changed) {
        // The writes are in the feed by now: the function (or the console) has returned. Read them before the diffs.
        boolean fed = changes.catchUp();
        entry.put("calls", calls);
        BigDecimal capacity = capacity(calls, false);
        entry.put("totals", Map.of("calls", calls.size(), "capacity", plain(capacity)));
        List<Map<String, Object>> touched = new ArrayList<>();
        List<Map<String, Object>> writes = new ArrayList<>();
        Map<PrimaryKey, Integer> writesOnKey = new java.util.HashMap<>();
        long since = began.toEpochMilli();
        for (Map<String, Object> call : calls) {
            Map<String, Object> key = (Map<String, Object>) call.get("key");
            if (key != null) {
                PrimaryKey primaryKey = TableMirror.keyOf(DynamoJson.toItem(key));
                touched.add(Map.of("partition", primaryKey.partition(), "sort", primaryKey.sort()));
                if (WRITES.contains(call.get("operation")) && call.get("error") == null) {
                    String operation = String.valueOf(call.get("operation"));
                    int nth = writesOnKey.merge(primaryKey, 1, Integer::sum);
                    List<EngineChanges.Change> fedChanges = fed ? changes.changesOf(primaryKey, since) : List.of();
                    if (fedChanges.size() >= nth) {
                        // The n-th write call on a key is the n-th record on it: the item before and after THIS call.
                        EngineChanges.Change change = fedChanges.get(nth - 1);
                        writes.add(diff(primaryKey, operation, change.oldItem(), change.newItem()));
                    } else {
                        writes.add(diffFromMirror(primaryKey, operation, began, createsWhereNone(call), changed));
                    }
                }
            } else if (call.get("partition") != null) {
                touched.add(Map.of("partition", call.get("partition")));
            }
        }
        entry.put("touched", touched);
        entry.put("writes", writes);
        return capacity;
    }

    /**
     * Without the feed: the item as the console last saw it, and as it is now. A request that writes one item
     * twice shows the final state in its first diff and no change in its second.
     */
    private Map<String, Object> diffFromMirror(
            PrimaryKey key,
            String operation,
            java.time.Instant requestedAt,
            boolean createdWhereNone,
            Map<PrimaryKey, Map<String, Object>> changed) {
        Map<String, AttributeValue> before = mirror.lastSeen(key);
        Map<String, AttributeValue> after = mirror.refresh(key, requestedAt, createdWhereNone);
        changed.put(key, after == null ? null : ItemRows.row(after));
        return diff(key, operation, before, after);
    }

    private static Map<String, Object> diff(
            PrimaryKey key, String operation, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        Map<String, Object> write = new LinkedHashMap<>();
        write.put("operation", operation);
        write.put("partition", key.partition());
        write.put("sort", key.sort());
        write.put("before", DynamoJson.item(withoutKey(before)));
        write.put("after", DynamoJson.item(withoutKey(after)));
        return write;
    }

    /**
     * Whether the call succeeded only where no item was (its condition is attribute_not_exists of a key): then the
     * console knows the before without having seen it, and the partition's counts just add the new item.
     */
    private static boolean createsWhereNone(Map<String, Object> call) {
        if (!(call.get("expressions") instanceof Map<?, ?> expressions)
                || !(expressions.get("condition") instanceof String condition)) {
            return false;
        }
        java.util.regex.Matcher absent = java.util.regex.Pattern.compile("attribute_not_exists\\((#\\w+)\\)")
                .matcher(condition.strip());
        if (!absent.matches() || !(expressions.get("names") instanceof Map<?, ?> names)) {
            return false;
        }
        Object attribute = names.get(absent.group(1));
        return KeyCodec.PARTITION_KEY.equals(attribute) || KeyCodec.SORT_KEY.equals(attribute);
    }

    private static Map<String, AttributeValue> withoutKey(Map<String, AttributeValue> item) {
        if (item == null) {
            return null;
        }
        Map<String, AttributeValue> rest = new java.util.TreeMap<>(item);
        rest.remove(KeyCodec.PARTITION_KEY);
        rest.remove(KeyCodec.SORT_KEY);
        return rest;
    }

    /** The field of a call only the local engine makes, and why it does. */
    static final String LOCAL_ONLY = "localOnly";

    private static final String NO_ITEM_WITH_REFUSAL = "dynalite drops ReturnValuesOnConditionCheckFailure: DynamoDB"
            + " returns the item with the refusal, and the store makes no such read there";

    /**
     * Labels the consistent read the store makes after a refused conditional write when the engine did not return
     * the item with the refusal (WriteConditions.readAfterConflict, WriteOutcome.Refused): a GetItem of the key
     * the call before it failed to write by its condition. DynamoDB returns that item, so only dynalite costs it.
     */
    private static List<Map<String, Object>> labelLocalOnly(List<Map<String, Object>> calls) {
        List<Map<String, Object>> out = new ArrayList<>();
        Map<String, Object> previous = null;
        for (Map<String, Object> call : calls) {
            Map<String, Object> labelled = new LinkedHashMap<>(call);
            if (previous != null
                    && "GetItem".equals(call.get("operation"))
                    && WRITES.contains(previous.get("operation"))
                    && String.valueOf(previous.get("error")).startsWith("ConditionalCheckFailed")
                    && call.get("key") != null
                    && call.get("key").equals(previous.get("key"))) {
                labelled.put(LOCAL_ONLY, NO_ITEM_WITH_REFUSAL);
            }
            out.add(labelled);
            previous = call;
        }
        return out;
    }

    /** The calls' capacity; with {@code dynamoDbOnly}, without the calls only the local engine makes. */
    private static BigDecimal capacity(List<Map<String, Object>> calls, boolean dynamoDbOnly) {
        BigDecimal capacity = BigDecimal.ZERO;
        for (Map<String, Object> call : calls) {
            if (call.get("capacity") != null && !(dynamoDbOnly && call.containsKey(LOCAL_ONLY))) {
                // Read before it is added: a posted 1e999999999 would be widened to a billion digits.
                capacity = capacity.add(DynamoDbNumber.of(String.valueOf(call.get("capacity")))
                        .map(DynamoDbNumber::decimal)
                        .orElseThrow(() -> new IllegalArgumentException("a call's capacity must be a number")));
            }
        }
        return capacity;
    }

    /** The route's budget for this request, and what of it was overrun. */
    private java.util.Optional<Map<String, Object>> budget(ServedRequest request, int calls, BigDecimal capacity) {
        return Operations.ofFunction(request.function())
                .map(Operation::descriptor)
                .map(Descriptor::budget)
                .map(budget -> {
                    CostBudget.Allowance allowance = budget.allowance(
                            plan.get(),
                            request.pathParameters(),
                            request.requestHeaders().containsKey("idempotency-key"));
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("description", budget.description());
                    out.put("calls", allowance.calls());
                    out.put("capacity", plain(allowance.capacity()));
                    out.put("over", allowance.overrun(calls, capacity).orElse(null));
                    return out;
                });
    }

    /**
     * The title and detail of a 4xx or 5xx body: a function's problem+json, or API Gateway's {@code {"message"}}.
     * Only those two strings are kept, so whatever else a body carries (a trace, a token) never reaches the log.
     */
    static java.util.Optional<Map<String, Object>> problem(String errorBody) {
        if (errorBody == null || errorBody.isBlank()) {
            return java.util.Optional.empty();
        }
        Map<String, Object> body;
        try {
            body = Json.readObject(errorBody);
        } catch (RuntimeException notJson) {
            return java.util.Optional.empty();
        }
        Object title = body.get("title") != null ? body.get("title") : body.get("message");
        Map<String, Object> out = new LinkedHashMap<>();
        if (title instanceof String t) {
            out.put("title", t);
        }
        if (body.get("detail") instanceof String d) {
            out.put("detail", d);
        }
        return out.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(out);
    }

    private static String plain(BigDecimal value) {
        return CostBudget.plain(value);
    }
}
