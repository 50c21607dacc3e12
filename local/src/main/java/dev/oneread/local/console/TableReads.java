package dev.oneread.local.console;

import dev.oneread.expr.Condition;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.expr.ReadExpressions;
import dev.oneread.json.Json;
import dev.oneread.keys.KeyCodec;
import dev.oneread.model.DynamoDbNumber;
import dev.oneread.store.items.DynamoJson;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    private static final int MAX_FILTERS = 10;
    private static final int MAX_PROJECTION = 20;
    private static final int MAX_VALUE_CHARS = 1_024;
    /** Names a person types: letters, digits, underscore and hyphen, as every attribute of this table is named. */
    private static final Pattern ATTRIBUTE = Pattern.compile("^[A-Za-z0-9_-]{1,255}$");

    private final TableMirror mirror;

    TableReads(TableMirror mirror) {
        this.mirror = mirror;
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
    }

    /** A form, checked and turned into its request: a Query or a Scan. */
    record Read(Target target, QueryRequest query, ScanRequest scan, ReadExpressions expressions) {}

    /**
     * Checks a form and builds its request.
     *
     * @throws BadRequest naming the first fault
     */
    Read build(Map<String, Object> form) {
        Target target = target(Forms.text(form, "target", "table"));
        String mode = Forms.text(form, "mode", "query");
        int limit = (int) Forms.number(form, "limit", 25, 1, MAX_LIMIT);
        List<Condition> filters = filters(form, target, mode.equals("query"));
        List<String> projection = projection(form);
        Map<String, AttributeValue> start = cursor(Forms.text(form, "cursor", ""), target);
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
                        .limit(limit)
                        .exclusiveStartKey(start)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
                return new Read(target, query, null, expressions);
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
                        .limit(limit)
                        .exclusiveStartKey(start)
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .build();
                return new Read(target, null, scan, expressions);
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

    /** Runs a read: one page of items, Count, ScannedCount, the capacity consumed and the cursor of the next. */
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

    private Map<String, Object> page(Read read) {
        List<Map<String, AttributeValue>> items;
        int count;
        int scanned;
        ConsumedCapacity consumed;
        Map<String, AttributeValue> last;
        if (read.query() != null) {
            QueryResponse page = mirror.client().query(read.query());
            items = page.items();
            count = page.count();
            scanned = page.scannedCount();
            consumed = page.consumedCapacity();
            last = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : Map.of();
        } else {
            ScanResponse page = mirror.client().scan(read.scan());
            items = page.items();
            count = page.count();
            scanned = page.scannedCount();
            consumed = page.consumedCapacity();
            last = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : Map.of();
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("operation", read.query() != null ? "Query" : "Scan");
        out.put("index", read.target().index);
        out.put("expressions", printed(read.expressions()));
        out.put("items", items.stream().map(DynamoJson::item).toList());
        out.put("count", count);
        out.put("scannedCount", scanned);
        out.put(
                "consumed",
                consumed == null || consumed.capacityUnits() == null
                        ? null
                        : BigDecimal.valueOf(consumed.capacityUnits())
                                .stripTrailingZeros()
                                .toPlainString());
        out.put("cursor", last.isEmpty() ? null : encode(last));
        return out;
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

    private static List<String> projection(Map<String, Object> form) {
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
