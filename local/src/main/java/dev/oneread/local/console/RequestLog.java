package dev.oneread.local.console;

import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.catalogue.CostBudget;
import dev.oneread.local.runner.ServedRequest;
import dev.oneread.store.DynamoJson;
import java.math.BigDecimal;
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
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Every request start-api served, newest first, with the DynamoDB calls its function handed over: their totals
 * next to the response's {@code X-Dynamo-*} headers, the route's {@link CostBudget}, the items each call touched,
 * and for writes each item before and after. It tells {@link ConsoleEvents} of each entry and of the partitions
 * that changed, so open consoles update without a reload.
 */
final class RequestLog implements ServedRequest.Observer {
    /** The most entries kept: older ones fall off, as in a terminal's scrollback. */
    static final int CAPACITY = 2_000;

    private static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "DeleteItem");

    private final TableMirror mirror;
    private final ShardPlan plan;
    private final ConsoleEvents events;
    private final Deque<Map<String, Object>> entries = new ArrayDeque<>();
    private final AtomicLong sequence = new AtomicLong();

    RequestLog(TableMirror mirror, ShardPlan plan, ConsoleEvents events) {
        this.mirror = mirror;
        this.plan = plan;
        this.events = events;
    }

    @Override
    public void served(ServedRequest request) {
        Map<String, Object> entry;
        Set<String> changed = new LinkedHashSet<>();
        try {
            entry = entry(request, changed);
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
        Set<String> changed = new LinkedHashSet<>();
        BigDecimal capacity = withCalls(entry, calls, changed);
        // No function answered, so no X-Dynamo-* headers: the console's own answer carries the same totals.
        entry.put("headers", Map.of("calls", String.valueOf(calls.size()), "capacity", plain(capacity)));
        entry.put("agree", true);
        problem.ifPresent(p -> entry.put("problem", p));
        add(entry, changed);
    }

    /** One action of the console on the table, as its log entry describes it. */
    record ConsoleAction(
            String name,
            String method,
            String path,
            String workspace,
            int status,
            java.time.Instant at,
            double durationMs) {}

    private void add(Map<String, Object> entry, Set<String> changed) {
        synchronized (entries) {
            entries.addFirst(entry);
            while (entries.size() > CAPACITY) {
                entries.removeLast();
            }
        }
        events.publish("request", entry);
        if (!changed.isEmpty()) {
            // The tenants too: a console showing a whole tenant reloads only for its own tenant's writes, and a
            // write can land on a shard partition the console has not listed yet.
            List<String> tenants = changed.stream()
                    .map(p -> ItemRows.place(p).tenant())
                    .distinct()
                    .toList();
            events.publish("changed", Map.of("partitions", List.copyOf(changed), "tenants", tenants));
        }
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
    private Map<String, Object> entry(ServedRequest request, Set<String> changed) {
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
                : (List<Map<String, Object>>)
                        Json.readObject(request.callDetail()).get("calls");
        BigDecimal capacity = withCalls(entry, calls, changed);
        String capacityText = plain(capacity);
        entry.put(
                "agree",
                String.valueOf(calls.size()).equals(headers.get("calls"))
                        && capacityText.equals(headers.get("capacity")));
        budget(request, calls.size(), capacity).ifPresent(b -> entry.put("budget", b));
        problem(request.errorBody()).ifPresent(p -> entry.put("problem", p));
        return entry;
    }

    /**
     * Puts the calls into an entry with their totals, the items they touched and each write's diff, and adds the
     * partitions written to {@code changed}; the capacity they consumed.
     */
    @SuppressWarnings("unchecked")
    private BigDecimal withCalls(Map<String, Object> entry, List<Map<String, Object>> calls, Set<String> changed) {
        entry.put("calls", calls);
        BigDecimal capacity = BigDecimal.ZERO;
        for (Map<String, Object> call : calls) {
            if (call.get("capacity") != null) {
                capacity = capacity.add(new BigDecimal(String.valueOf(call.get("capacity"))));
            }
        }
        entry.put("totals", Map.of("calls", calls.size(), "capacity", plain(capacity)));
        List<Map<String, Object>> touched = new ArrayList<>();
        List<Map<String, Object>> writes = new ArrayList<>();
        for (Map<String, Object> call : calls) {
            Map<String, Object> key = (Map<String, Object>) call.get("key");
            if (key != null) {
                PrimaryKey primaryKey = TableMirror.keyOf(DynamoJson.toItem(key));
                touched.add(Map.of("partition", primaryKey.partition(), "sort", primaryKey.sort()));
                if (WRITES.contains(call.get("operation")) && call.get("error") == null) {
                    writes.add(diff(primaryKey, String.valueOf(call.get("operation"))));
                    changed.add(primaryKey.partition());
                }
            } else if (call.get("partition") != null) {
                touched.add(Map.of("partition", call.get("partition")));
            }
        }
        entry.put("touched", touched);
        entry.put("writes", writes);
        return capacity;
    }

    /** The item as the console last saw it, and as it is now: what one write changed. */
    private Map<String, Object> diff(PrimaryKey key, String operation) {
        Map<String, AttributeValue> before = mirror.lastSeen(key);
        Map<String, AttributeValue> after = mirror.refresh(key);
        Map<String, Object> write = new LinkedHashMap<>();
        write.put("operation", operation);
        write.put("partition", key.partition());
        write.put("sort", key.sort());
        write.put("before", DynamoJson.item(withoutKey(before)));
        write.put("after", DynamoJson.item(withoutKey(after)));
        return write;
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

    /** The route's budget for this request, and what of it was overrun. */
    private java.util.Optional<Map<String, Object>> budget(ServedRequest request, int calls, BigDecimal capacity) {
        return CostBudget.ofFunction(request.function()).map(budget -> {
            WorkspaceId workspace = workspaceOf(request);
            CostBudget.Allowance allowance =
                    budget.allowance(plan, workspace, request.requestHeaders().containsKey("idempotency-key"));
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

    private static WorkspaceId workspaceOf(ServedRequest request) {
        try {
            return WorkspaceId.of(request.pathParameters().getOrDefault("workspaceId", ""));
        } catch (IllegalArgumentException e) {
            return WorkspaceId.of("unknown");
        }
    }

    private static String plain(BigDecimal value) {
        return CostBudget.plain(value);
    }
}
