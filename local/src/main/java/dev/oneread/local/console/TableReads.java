package dev.oneread.local.console;

import dev.oneread.expr.Condition;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.expr.ReadExpressions;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.local.expr.PageSnippets;
import dev.oneread.model.DynamoDbNumber;
import dev.oneread.store.items.DynamoJson;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The console's Scan and Query, on the table or the index GSI1, with filters and a projection, a page at a time: the
 * form names attributes and values, never expression text, and {@link ReadExpressions} writes every placeholder, so
 * no input can change what the expression says. A Scan reads the whole table: a tool for a person at the console,
 * never a request path (no function scans).
 *
 * <pre>{@code {"target": "GSI1", "mode": "query", "partition": "STATUS#ACTIVE#00",
 *  "filters": [{"attribute": "name", "operator": "begins_with", "value": "a"}], "projection": ["name"]}}</pre>
 */
final class TableReads {
    /** A page of the console's table: what one response may hold. */
    static final int MAX_LIMIT = 1_000;
    /**
     * The read budget a form starts with, in items read (the sum of ScannedCount): a filter that matches 1% fills a
     * page of 25 after about 2,500 items, and twice that leaves room for matches that cluster. Items, not capacity
     * units: Limit bounds the items each call reads, so the budget holds exactly, where capacity is known only after
     * a call.
     */
    static final int DEFAULT_BUDGET = 5_000;
    /** No page reads more: 100,000 items, a whole table of the size the console is measured at. */
    static final int MAX_BUDGET = 100_000;

    private static final int MAX_FILTERS = 10;
    private static final int MAX_PROJECTION = 20;
    private static final int MAX_VALUE_CHARS = 1_024;
    /** Past 2^30 a doubled Limit is above any budget: the shift stops there (as the snippets' does). */
    private static final int MAX_DOUBLINGS = 30;
    /** Names a person types: letters, digits, underscore and hyphen, as every attribute of this table is named. */
    private static final Pattern ATTRIBUTE = Pattern.compile("^[A-Za-z0-9_-]{1,255}$");

    private final TableMirror mirror;
    /** The engine the console reads, which the snippets name unless the form asks for the deployed table. */
    private final URI engine;

    TableReads(TableMirror mirror, URI engine) {
        this.mirror = mirror;
        this.engine = engine;
    }

    /** Where a read goes: the table, or the index, each with its own key attributes. */
    enum Target {
        TABLE(null, KeyCodec.PARTITION_KEY, KeyCodec.SORT_KEY),
        GSI1(KeyCodec.INDEX_NAME, KeyCodec.INDEX_PARTITION_KEY, KeyCodec.INDEX_SORT_KEY);

        final String index;
        final String partitionKey;
        final String sortKey;

        Target(String index, String partitionKey, String sortKey) {
            this.index = index;
            this.partitionKey = partitionKey;
            this.sortKey = sortKey;
        }

        /** The attributes of a page's LastEvaluatedKey: an index's carries the table's key too. */
        Set<String> cursorAttributes() {
            return this == TABLE
                    ? Set.of(partitionKey, sortKey)
                    : Set.of(partitionKey, sortKey, KeyCodec.PARTITION_KEY, KeyCodec.SORT_KEY);
        }

        /** The same attributes in a fixed order: what a projection adds so a page can resume from its last item. */
        List<String> keyAttributes() {
            return this == TABLE
                    ? List.of(partitionKey, sortKey)
                    : List.of(partitionKey, sortKey, KeyCodec.PARTITION_KEY, KeyCodec.SORT_KEY);
        }
    }

    /**
     * A form, checked and turned into its request (a Query or a Scan, without Limit or start: each call sets them),
     * the page's limit of matches, the budget of items read, where it starts (null: the beginning) and the engine
     * its snippets name (empty: the deployed table).
     */
    record Read(
            Target target,
            QueryRequest query,
            ScanRequest scan,
            ReadExpressions expressions,
            int limit,
            int budget,
            Map<String, AttributeValue> start,
            Optional<URI> engine) {
        PageSnippets.Page snippetPage() {
            return query != null
                    ? PageSnippets.Page.of(query, limit, budget, start)
                    : PageSnippets.Page.of(scan, limit, budget, start);
        }
    }

    /**
     * Checks a form and builds its request.
     *
     * @throws BadRequest naming the first fault
     */
    Read build(Map<String, Object> form) {
        Target target = target(Forms.text(form, "target", "table"));
        String mode = Forms.text(form, "mode", "query");
        int limit = (int) Forms.number(form, "limit", 25, 1, MAX_LIMIT);
        int budget = (int) Forms.number(form, "budget", DEFAULT_BUDGET, 1, MAX_BUDGET);
        List<Condition> filters = filters(form, target, mode.equals("query"));
        List<String> projection = projection(form, target);
        Map<String, AttributeValue> start = cursor(Forms.text(form, "cursor", ""), target);
        Optional<URI> snippetsFor = Boolean.TRUE.equals(form.get("deployed")) ? Optional.empty() : Optional.of(engine);
        switch (mode) {
            case "query" -> {
                ReadExpressions expressions = ReadExpressions.query(keyCondition(form, target), filters, projection);
                QueryRequest query = QueryRequest.builder()
                        .tableName(mirror.table())
                        .indexName(target.index)
                        .keyConditionExpression(expressions.keyCondition())
                        .filterExpression(expressions.filter())
                        .projectionExpression(expressions.projection())
                        .expressionAttributeNames(expressions.names())
                        .expressionAttributeValues(expressions.values())
                        .scanIndexForward(!Boolean.TRUE.equals(form.get("descending")))
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
                return new Read(target, query, null, expressions, limit, budget, start, snippetsFor);
            }
            case "scan" -> {
                ReadExpressions expressions = ReadExpressions.scan(filters, projection);
                ScanRequest scan = ScanRequest.builder()
                        .tableName(mirror.table())
                        .indexName(target.index)
                        .filterExpression(expressions.filter())
                        .projectionExpression(expressions.projection())
                        .expressionAttributeNames(expressions.names())
                        .expressionAttributeValues(expressions.values())
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
                return new Read(target, null, scan, expressions, limit, budget, start, snippetsFor);
            }
            default -> throw new BadRequest("mode must be query or scan");
        }
    }

    /** The fields a read form has, and those of each of its filters: all the console keeps of a read. */
    private static final List<String> FORM_TEXT = List.of("target", "mode");

    private static final List<String> QUERY_TEXT = List.of("partition", "sortOperator", "sortValue", "sortHigh");
    private static final List<String> FILTER_TEXT = List.of("attribute", "operator", "value", "type");
    /** The longest text a kept field may hold: a partition's 2,048 bytes are at most 2,048 characters. */
    private static final int MAX_KEPT_CHARS = 2_048;

    /**
     * What the console keeps of a form (its recent and saved reads): the fields {@link #build} reads, and
     * nothing else, each within its bound; a cursor never (a kept read starts at its first page). So a form that
     * carries unknown fields, or more filters or text than a read takes, keeps a bounded size.
     */
    static Map<String, Object> kept(Map<String, Object> form) {
        Map<String, Object> kept = new TreeMap<>();
        keepText(form, kept, FORM_TEXT);
        if ("query".equals(kept.getOrDefault("mode", "query"))) {
            keepText(form, kept, QUERY_TEXT);
            if (form.get("descending") instanceof Boolean descending) {
                kept.put("descending", descending);
            }
        }
        if (form.get("limit") instanceof Number limit && limit.doubleValue() >= 1 && limit.doubleValue() <= MAX_LIMIT) {
            kept.put("limit", limit);
        }
        if (form.get("budget") instanceof Number budget
                && budget.doubleValue() >= 1
                && budget.doubleValue() <= MAX_BUDGET) {
            kept.put("budget", budget);
        }
        if (form.get("filters") instanceof List<?> filters) {
            List<Map<String, Object>> keptFilters = new ArrayList<>();
            filters.stream().limit(MAX_FILTERS).forEach(filter -> {
                if (filter instanceof Map<?, ?> raw) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> one = (Map<String, Object>) raw;
                    Map<String, Object> keptFilter = new TreeMap<>();
                    keepText(one, keptFilter, FILTER_TEXT);
                    keptFilters.add(keptFilter);
                }
            });
            kept.put("filters", keptFilters);
        }
        if (form.get("projection") instanceof List<?> projection) {
            kept.put(
                    "projection",
                    projection.stream()
                            .filter(name -> name instanceof String s
                                    && ATTRIBUTE.matcher(s).matches())
                            .limit(MAX_PROJECTION)
                            .toList());
        }
        return kept;
    }

    private static void keepText(Map<String, Object> from, Map<String, Object> into, List<String> fields) {
        for (String field : fields) {
            if (from.get(field) instanceof String text && text.length() <= MAX_KEPT_CHARS) {
                into.put(field, text);
            }
        }
    }

    /**
     * Runs a read: calls until the page holds its limit of matches, the budget of items read is spent, or the table
     * or partition ends, by the rule the snippets print ({@link PageSnippets#RULE}). The page: its items, the calls
     * made, the items read (the sum of ScannedCount), the capacity consumed (the sum of each call's), why it stopped,
     * and the cursor of the next page: the key of the last item kept when a call brought more matches than the page
     * wanted (so none is skipped or shown twice), otherwise the last call's LastEvaluatedKey.
     */
    Map<String, Object> run(Read read) {
        try {
            return page(read);
        } catch (DynamoDbException e) {
            if (e.statusCode() == 400 && e.awsErrorDetails() != null) {
                // A read the form allowed but the engine refused (a filter on a projected-away key, say): its words.
                throw new BadRequest(
                        "the engine refused the read: " + e.awsErrorDetails().errorMessage());
            }
            throw e;
        }
    }

    /** Why a page stopped, in the words the page and the snippets print. */
    enum Stop {
        FULL("page full"),
        BUDGET("budget spent"),
        END("end");

        final String words;

        Stop(String words) {
            this.words = words;
        }
    }

    /** One call's answer, Query's or Scan's. */
    private record Call(
            List<Map<String, AttributeValue>> items,
            int scanned,
            ConsumedCapacity consumed,
            Map<String, AttributeValue> last) {}

    /** One call of the read, with this Limit, from this start; an absent LastEvaluatedKey is the SDK's empty map. */
    private Call call(Read read, int limit, Map<String, AttributeValue> start) {
        if (read.query() != null) {
            QueryResponse r = mirror.client()
                    .query(read.query().toBuilder()
                            .limit(limit)
                            .exclusiveStartKey(start)
                            .build());
            return new Call(r.items(), r.scannedCount(), r.consumedCapacity(), r.lastEvaluatedKey());
        }
        ScanResponse r = mirror.client()
                .scan(read.scan().toBuilder()
                        .limit(limit)
                        .exclusiveStartKey(start)
                        .build());
        return new Call(r.items(), r.scannedCount(), r.consumedCapacity(), r.lastEvaluatedKey());
    }

    private Map<String, Object> page(Read read) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Map<String, AttributeValue> start = read.start();
        Map<String, AttributeValue> next;
        boolean afterKept = false;
        int calls = 0;
        long scanned = 0;
        BigDecimal consumed = BigDecimal.ZERO;
        Stop stop;
        while (true) {
            // Limit counts the items read, before the filter: the matches still wanted, doubled at each call.
            int limit = (int) Math.min(
                    read.budget() - scanned, (long) (read.limit() - items.size()) << Math.min(calls, MAX_DOUBLINGS));
            Call call = call(read, limit, start);
            calls++;
            scanned += call.scanned();
            if (call.consumed() != null && call.consumed().capacityUnits() != null) {
                consumed = consumed.add(BigDecimal.valueOf(call.consumed().capacityUnits()));
            }
            int wanted = read.limit() - items.size();
            items.addAll(call.items().subList(0, Math.min(wanted, call.items().size())));
            if (call.items().size() > wanted) {
                // More matches than the page holds: the next page starts after the last one kept.
                stop = Stop.FULL;
                afterKept = true;
                next = keyOf(items.get(items.size() - 1), read.target());
                break;
            }
            if (call.last().isEmpty()) {
                stop = Stop.END;
                next = Map.of();
                break;
            }
            start = call.last();
            next = start;
            if (items.size() == read.limit()) {
                stop = Stop.FULL;
                break;
            }
            if (scanned >= read.budget()) {
                stop = Stop.BUDGET;
                break;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("operation", read.query() != null ? "Query" : "Scan");
        out.put("index", read.target().index);
        out.put("expressions", printed(read.expressions()));
        out.put("items", items.stream().map(DynamoJson::item).toList());
        out.put("count", items.size());
        out.put("scannedCount", scanned);
        out.put("calls", calls);
        out.put("consumed", consumed.stripTrailingZeros().toPlainString());
        out.put("stopped", stop.words);
        out.put("limit", read.limit());
        out.put("budget", read.budget());
        out.put("cursor", next.isEmpty() ? null : encode(next));
        out.put("resumesAfter", next.isEmpty() ? null : afterKept ? "the last item kept" : "the last item read");
        out.put("snippets", snippets(read));
        return out;
    }

    /** The read as four programs that make the same calls and print the same page. */
    static Map<String, String> snippets(Read read) {
        return PageSnippets.all(read.snippetPage(), read.engine());
    }

    /** The key a page resumes after: the target's key attributes of the item (a projection always carries them). */
    private static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item, Target target) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        target.keyAttributes().forEach(name -> key.put(name, item.get(name)));
        return key;
    }

    private static Map<String, Object> printed(ReadExpressions e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("keyCondition", e.keyCondition());
        out.put("filter", e.filter());
        out.put("projection", e.projection());
        out.put("names", e.names());
        out.put("values", DynamoJson.item(e.values()));
        return out;
    }

    private static Target target(String name) {
        return switch (name) {
            case "table" -> Target.TABLE;
            case "GSI1" -> Target.GSI1;
            default -> throw new BadRequest("target must be table or GSI1");
        };
    }

    private static KeyCondition keyCondition(Map<String, Object> form, Target target) {
        String partition = Forms.text(form, "partition", "");
        if (partition.isEmpty() || partition.getBytes(StandardCharsets.UTF_8).length > 2_048) {
            throw new BadRequest("a query needs partition, the " + target.partitionKey + " value (1-2,048 bytes)");
        }
        KeyCondition key = KeyCondition.partitionEquals(target.partitionKey, partition);
        String op = Forms.text(form, "sortOperator", "");
        if (op.isEmpty()) {
            return key;
        }
        SortOperator operator;
        try {
            operator = SortOperator.valueOf(op);
        } catch (IllegalArgumentException e) {
            throw new BadRequest("sortOperator must be one of EQ, LT, LE, GT, GE, BEGINS_WITH, BETWEEN");
        }
        String value = Forms.text(form, "sortValue", "");
        String high = Forms.text(form, "sortHigh", "");
        if (value.isEmpty() || value.length() > MAX_VALUE_CHARS) {
            throw new BadRequest("sortValue is required with sortOperator, at most " + MAX_VALUE_CHARS + " characters");
        }
        if (operator == SortOperator.BETWEEN && (high.isEmpty() || value.compareTo(high) > 0)) {
            throw new BadRequest("BETWEEN needs sortHigh, not below sortValue");
        }
        return key.sort(operator, target.sortKey, value, high);
    }

    /** The form's filters, ANDed; none may name a key attribute of a query (DynamoDB refuses it). */
    private static List<Condition> filters(Map<String, Object> form, Target target, boolean query) {
        List<?> given = Forms.list(form, "filters");
        if (given.size() > MAX_FILTERS) {
            throw new BadRequest("at most " + MAX_FILTERS + " filters");
        }
        List<Condition> filters = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            if (!(given.get(i) instanceof Map<?, ?> raw)) {
                throw new BadRequest("filter " + (i + 1) + " must be an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> filter = (Map<String, Object>) raw;
            String attribute = attribute(Forms.text(filter, "attribute", ""), "filter " + (i + 1));
            if (query && (attribute.equals(target.partitionKey) || attribute.equals(target.sortKey))) {
                throw new BadRequest("filter " + (i + 1) + ": " + attribute + " is a key attribute of this query;"
                        + " DynamoDB filters only other attributes: put it in the key condition");
            }
            filters.add(condition(filter, attribute, "filter " + (i + 1)));
        }
        return filters;
    }

    private static Condition condition(Map<String, Object> filter, String attribute, String which) {
        String operator = Forms.text(filter, "operator", "=");
        if (operator.equals("exists")) {
            return Condition.attributeExists(attribute);
        } else if (operator.equals("not_exists")) {
            return Condition.attributeNotExists(attribute);
        }
        AttributeValue value = value(filter, which);
        return switch (operator) {
            case "=" -> Condition.equalTo(attribute, value);
            case "<>" -> Condition.notEqualTo(attribute, value);
            case "<" -> Condition.lessThan(attribute, value);
            case "<=" -> Condition.lessThanOrEqualTo(attribute, value);
            case ">" -> Condition.greaterThan(attribute, value);
            case ">=" -> Condition.greaterThanOrEqualTo(attribute, value);
            case "begins_with" -> Condition.beginsWith(attribute, value);
            case "contains" -> Condition.contains(attribute, value);
            default ->
                throw new BadRequest(which + ": operator must be one of =, <>, <, <=, >, >=, begins_with, contains,"
                        + " exists, not_exists");
        };
    }

    /** A filter's value, typed as the form says: a string, a number or a boolean. */
    private static AttributeValue value(Map<String, Object> filter, String which) {
        String value = Forms.text(filter, "value", "");
        if (value.length() > MAX_VALUE_CHARS) {
            throw new BadRequest(which + ": value is at most " + MAX_VALUE_CHARS + " characters");
        }
        String type = Forms.text(filter, "type", "S");
        return switch (type) {
            case "S" -> AttributeValue.fromS(value);
            case "N" ->
                // Read before it is parsed: the plain form of 1e999999999 is a billion digits.
                AttributeValue.fromN(DynamoDbNumber.of(value)
                        .orElseThrow(() -> new BadRequest(
                                which + ": value is not a number DynamoDB stores (" + DynamoDbNumber.RULE + ")"))
                        .decimal()
                        .toPlainString());
            case "BOOL" -> {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new BadRequest(which + ": a BOOL value is true or false");
                }
                yield AttributeValue.fromBool(Boolean.parseBoolean(value));
            }
            default -> throw new BadRequest(which + ": type must be S, N or BOOL");
        };
    }

    /**
     * The projection asked for, and then the target's key attributes (the table's too, for the index) if it left
     * them out: a page resumes after the key of its last item, so each item it keeps must carry that key.
     */
    private static List<String> projection(Map<String, Object> form, Target target) {
        List<?> given = Forms.list(form, "projection");
        if (given.size() > MAX_PROJECTION) {
            throw new BadRequest("at most " + MAX_PROJECTION + " projected attributes");
        }
        List<String> projection = new ArrayList<>();
        for (Object attribute : given) {
            String name = attribute(attribute instanceof String s ? s : "", "projection");
            if (!projection.contains(name)) {
                projection.add(name);
            }
        }
        if (!projection.isEmpty()) {
            target.keyAttributes().stream()
                    .filter(name -> !projection.contains(name))
                    .forEach(projection::add);
        }
        return projection;
    }

    private static String attribute(String name, String which) {
        if (!ATTRIBUTE.matcher(name).matches()) {
            throw new BadRequest(which + ": an attribute name is 1-255 letters, digits, _ or -");
        }
        return name;
    }

    /** The next page's start, as the page hands it on: the LastEvaluatedKey in DynamoDB JSON, base64url. */
    private static String encode(Map<String, AttributeValue> last) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(Json.write(DynamoJson.item(last)).getBytes(StandardCharsets.UTF_8));
    }

    /** A cursor this console gave for this target; null for none. */
    private static Map<String, AttributeValue> cursor(String cursor, Target target) {
        if (cursor.isEmpty()) {
            return null;
        }
        try {
            Map<String, AttributeValue> key = DynamoJson.toItem(
                    Json.readObject(new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8)));
            if (key.keySet().equals(target.cursorAttributes())
                    && key.values().stream().allMatch(v -> v.s() != null)) {
                return key;
            }
        } catch (RuntimeException e) {
            // falls through to the refusal
        }
        throw new BadRequest(
                "cursor is not one this console gave for " + target.name().toLowerCase(java.util.Locale.ROOT));
    }
}
