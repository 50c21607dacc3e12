package dev.oneread.local.console;

import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.catalogue.Catalogue;
import dev.oneread.local.expr.PageSnippets;
import dev.oneread.local.expr.RequestPrinter;
import dev.oneread.local.expr.TypedQuery;
import dev.oneread.operations.Descriptor;
import dev.oneread.operations.Input;
import dev.oneread.operations.KeyRange;
import dev.oneread.operations.Operation;
import dev.oneread.operations.Sample;
import dev.oneread.store.items.ItemSize;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The console's expression builder: an access pattern, or a key condition with any sort-key operator, printed by
 * the same code as {@code expr} (the store's own request for a named pattern), and run against the local engine
 * with the capacity it consumed next to the capacity predicted from the sizes of the items it selects.
 */
final class ExpressionBuilder {
    /** DynamoDB's largest Limit the console takes; a page of the table view is smaller. */
    static final int MAX_LIMIT = 1_000;
    /** DynamoDB's limit on a partition key value. */
    private static final int MAX_KEY_BYTES = 2_048;

    private final TableMirror mirror;
    /** The running configuration's shard plan, read at each use: a deploy changes it. */
    private final Supplier<ShardPlan> plan;
    /** The engine the console reads, which its snippets name unless the form asks for the deployed table. */
    private final URI engine;

    ExpressionBuilder(TableMirror mirror, Supplier<ShardPlan> plan, URI engine) {
        this.mirror = mirror;
        this.plan = plan;
        this.engine = engine;
    }

    /** What a query selects: one partition, a sort-key condition and an order (the key range), and a limit. */
    record Selection(KeyRange key, int limit) {}

    /** A built query: the request as sent, and what it selects. */
    /** A form's query, and the local engine its snippets name (empty: the deployed table). */
    record Built(QueryRequest request, Selection selection, Optional<URI> engine) {
        Built(QueryRequest request, Selection selection) {
            this(request, selection, Optional.empty());
        }
    }

    /**
     * Builds the query a console form describes: an access pattern of the catalogue, or a custom key condition.
     *
     * @throws BadRequest naming what is wrong
     */
    Built build(Map<String, Object> form) {
        Built built = select(form);
        boolean deployed = Boolean.TRUE.equals(form.get("deployed"));
        return new Built(built.request(), built.selection(), deployed ? Optional.empty() : Optional.of(engine));
    }

    private Built select(Map<String, Object> form) {
        String name = text(form, "pattern", "custom");
        int limit = (int) Forms.number(form, "limit", 20, 1, MAX_LIMIT);
        if (name.equals("custom")) {
            return custom(form, limit);
        }
        List<Operation> offered = Catalogue.offeredIn(Catalogue.Tool.CONSOLE);
        Operation pattern = offered.stream()
                .filter(p -> p.descriptor().name().equals(name))
                .findFirst()
                .orElseThrow(() -> new BadRequest("pattern must be "
                        + String.join(
                                ", ",
                                offered.stream().map(p -> p.descriptor().name()).toList()) + " or custom"));
        Sample sample = Sample.of(mirror.table()).withPlan(plan.get()).withLimit(limit);
        if (pattern.descriptor().inputs().contains(Input.WORKSPACE)) {
            sample = sample.withWorkspace(workspace(form));
        }
        if (pattern.descriptor().inputs().contains(Input.PROJECT)) {
            sample = sample.withProject(project(form));
        }
        KeyRange key = pattern.keys(sample);
        if (pattern.sampleRequest(sample) instanceof QueryRequest query) {
            return new Built(query, new Selection(key, limit));
        }
        // A GetItem pattern runs as the Query of its one key: what it reads and costs is the same.
        return query(new Selection(key, limit));
    }

    private Built custom(Map<String, Object> form, int limit) {
        boolean descending = Boolean.TRUE.equals(form.get("descending"));
        String partition = text(form, "partition", "");
        if (partition.isEmpty() || partition.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
            throw new BadRequest("partition must be 1-" + MAX_KEY_BYTES + " bytes");
        }
        String op = text(form, "operator", "");
        SortOperator operator = null;
        if (!op.isEmpty()) {
            try {
                operator = SortOperator.valueOf(op);
            } catch (IllegalArgumentException e) {
                throw new BadRequest("operator must be one of EQ, LT, LE, GT, GE, BEGINS_WITH, BETWEEN");
            }
        }
        String value = text(form, "value", "");
        String high = text(form, "high", "");
        if (operator != null && value.isEmpty()) {
            throw new BadRequest("value is required with a sort key operator");
        }
        if (operator == SortOperator.BETWEEN && (high.isEmpty() || value.compareTo(high) > 0)) {
            throw new BadRequest("BETWEEN needs a high bound not below value");
        }
        return query(new Selection(new KeyRange(partition, operator, value, high, descending), limit));
    }

    /** The Query of a selection's key condition, as {@code expr query} builds it. */
    private Built query(Selection selection) {
        KeyRange key = selection.key();
        KeyCondition condition = KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, key.partition());
        if (key.operator() != null) {
            condition = condition.sort(key.operator(), KeyCodec.SORT_KEY, key.value(), key.high());
        }
        try {
            return new Built(TypedQuery.of(mirror.table(), condition, key.descending(), selection.limit()), selection);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new BadRequest("the key condition is not valid: " + e.getMessage());
        }
    }

    /**
     * The access patterns the builder offers, as the page lists them ({@code GET /_console/api/patterns}): each
     * one's name, route and inputs (which of the form's fields it reads), in the list of operations' order. The page
     * writes none of them itself, so an operation added to the list is offered there too.
     */
    static Map<String, Object> patterns() {
        List<Map<String, Object>> patterns = new ArrayList<>();
        for (Operation operation : Catalogue.offeredIn(Catalogue.Tool.CONSOLE)) {
            Descriptor descriptor = operation.descriptor();
            patterns.add(Map.of(
                    "name", descriptor.name(),
                    "route", descriptor.route().toString(),
                    "inputs", inputs(descriptor)));
        }
        return Map.of("patterns", patterns);
    }

    /** A pattern's inputs in the form's words: {@code workspace}, {@code project}. */
    private static List<String> inputs(Descriptor descriptor) {
        return descriptor.inputs().stream()
                .map(input -> input.name().toLowerCase(Locale.ROOT))
                .sorted()
                .toList();
    }

    /**
     * The three renderings {@code expr} prints (its snippets for {@code engine}, a local engine, as {@code expr
     * --endpoint-url} prints them, or for the deployed table when it is empty), and the same Query in Python (boto3)
     * and JavaScript (SDK v3).
     */
    static Map<String, Object> printed(QueryRequest request, Optional<URI> engine) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("expression", String.join("\n", RequestPrinter.expressionLines(request)));
        out.put("java", String.join("\n", RequestPrinter.javaSnippet(request, engine)));
        out.put("cli", String.join("\n", RequestPrinter.awsCli(request, engine)));
        out.put("python", PageSnippets.pythonCall(request, engine));
        out.put("javascript", PageSnippets.javascriptCall(request, engine));
        return out;
    }

    /** Runs it: the items, the capacity the engine reported, and the capacity predicted before the call. */
    Map<String, Object> run(Built built) {
        BigDecimal predicted = ItemSize.queryReadUnits(predictedItems(built.selection()), false);
        QueryResponse response = mirror.client().query(built.request());
        Map<String, Object> out = new LinkedHashMap<>(printed(built.request(), built.engine()));
        List<Map<String, Object>> rows = new ArrayList<>();
        response.items().forEach(item -> rows.add(ItemRows.row(item)));
        out.put("items", rows);
        out.put("count", response.count());
        out.put("scannedCount", response.scannedCount());
        out.put("consumed", units(response.consumedCapacity()));
        out.put("predicted", predicted.stripTrailingZeros().toPlainString());
        return out;
    }

    /**
     * The items the selection reads, whole (the key condition's own Query, without the pattern's projection or
     * filter, which DynamoDB bills after reading): what the read will be billed for.
     */
    private List<Map<String, AttributeValue>> predictedItems(Selection selection) {
        return mirror.client().query(query(selection).request()).items();
    }

    private static ProjectId project(Map<String, Object> form) {
        try {
            return ProjectId.of(text(form, "projectId", ""));
        } catch (IllegalArgumentException e) {
            throw new BadRequest("projectId must be a project id (a ULID)");
        }
    }

    private static WorkspaceId workspace(Map<String, Object> form) {
        try {
            return WorkspaceId.of(text(form, "workspace", ""));
        } catch (IllegalArgumentException e) {
            throw new BadRequest("workspace must be a workspace id (lower-case letters, digits and hyphens)");
        }
    }

    private static String text(Map<String, Object> form, String field, String otherwise) {
        return Forms.text(form, field, otherwise);
    }

    /** A call's consumed capacity units as the console shows them (1.5, not 1.50), or null when none came back. */
    static String units(ConsumedCapacity consumed) {
        return consumed == null
                ? null
                : BigDecimal.valueOf(consumed.capacityUnits())
                        .stripTrailingZeros()
                        .toPlainString();
    }
}
