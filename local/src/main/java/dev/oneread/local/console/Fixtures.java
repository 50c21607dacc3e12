package dev.oneread.local.console;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ProjectLocation;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.store.StoredItems;
import dev.oneread.store.items.DynamoJson;
import dev.oneread.store.items.Items;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Seed data a team shares: the table exported as {@code {"Items": [...]}} in DynamoDB JSON (what {@code aws
 * dynamodb scan} prints), and such a file imported with one conditional PutItem per item, so an item that exists
 * is skipped and reported, never overwritten. A file is checked whole before the first write: a bad one changes
 * nothing.
 *
 * <p>An import takes only what the API could have written, as {@link WritableItems} judges it; idempotency records
 * and hot-tenant report entries only when asked for. A project goes in only where its workspace will be: in the table,
 * or in the file when the table has none, and not being deleted. Projects are placed by the shard plan the stack runs
 * now: one the file holds in another partition of its workspace (a file exported before a deploy that sharded the
 * tenant, or after one that unsharded it) goes to the home the plan gives its id, and the report says so.
 */
final class Fixtures {
    /** Enough for seed data; a larger file is a restore, which is not what the console is for. */
    static final int MAX_ITEMS = 25_000;

    /** BatchGetItem's limit of keys per request. */
    private static final int BATCH_GET_KEYS = 100;

    private final TableMirror mirror;
    private final WritableItems writable;
    private final ShardPlan plan;

    /** @param plan the shard plan the stack runs now */
    Fixtures(TableMirror mirror, ShardPlan plan) {
        this.mirror = mirror;
        this.plan = plan;
        this.writable = new WritableItems(mirror.table(), plan);
    }

    /** A file's item as it will be written, and where the file had it when the plan put it elsewhere. */
    private record Placed(Map<String, AttributeValue> item, Optional<String> fromPartition) {}

    /** The whole table, in key order: a paginated Scan. */
    Map<String, Object> export() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        mirror.scan(items::add);
        items.sort(java.util.Comparator.comparing((Map<String, AttributeValue> i) ->
                        i.get(KeyCodec.PARTITION_KEY).s())
                .thenComparing(i -> i.get(KeyCodec.SORT_KEY).s()));
        Map<String, Object> file = new LinkedHashMap<>();
        file.put("Items", items.stream().map(DynamoJson::item).toList());
        file.put("Count", items.size());
        return file;
    }

    /**
     * Imports a file: every item checked first, then written where no item has its key.
     *
     * @param bookkeeping whether idempotency records and hot-tenant report entries may go in
     * @throws BadRequest for a file that is not a list of items with string keys, with the first fault named; a 422
     *     naming every item the API could not have written, by key and reason
     */
    Map<String, Object> importFile(Map<String, Object> file, boolean bookkeeping) {
        List<Placed> placed = items(file);
        List<Map<String, AttributeValue>> items =
                placed.stream().map(Placed::item).toList();
        requireWritable(items, bookkeeping);
        Map<String, Object> report = write(items);
        List<Map<String, Object>> moved = new ArrayList<>();
        for (int i = 0; i < placed.size(); i++) {
            Placed one = placed.get(i);
            if (one.fromPartition().isPresent()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("item", i);
                entry.put("from", one.fromPartition().get());
                entry.put("partition", one.item().get(KeyCodec.PARTITION_KEY).s());
                entry.put("sort", one.item().get(KeyCodec.SORT_KEY).s());
                moved.add(entry);
            }
        }
        report.put("placed", moved);
        return report;
    }

    /**
     * The file's items, each with non-empty string keys, placed by the plan, and no key twice; the first fault as a
     * BadRequest.
     */
    private List<Placed> items(Map<String, Object> file) {
        if (!(file.get("Items") instanceof List<?> list)) {
            throw new BadRequest("a fixture file is an object with an \"Items\" array");
        }
        if (list.size() > MAX_ITEMS) {
            throw new BadRequest("a fixture file holds at most " + MAX_ITEMS + " items");
        }
        List<Placed> items = new ArrayList<>();
        Set<PrimaryKey> keys = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            Map<String, AttributeValue> item;
            try {
                item = DynamoJson.toItem(list.get(i));
            } catch (IllegalArgumentException e) {
                throw new BadRequest("item " + i + ": " + e.getMessage());
            }
            AttributeValue pk = item.get(KeyCodec.PARTITION_KEY);
            AttributeValue sk = item.get(KeyCodec.SORT_KEY);
            if (pk == null
                    || pk.s() == null
                    || pk.s().isEmpty()
                    || sk == null
                    || sk.s() == null
                    || sk.s().isEmpty()) {
                throw new BadRequest("item " + i + ": " + KeyCodec.PARTITION_KEY + " and " + KeyCodec.SORT_KEY
                        + " must be non-empty strings");
            }
            Placed placed = placed(item);
            if (!keys.add(TableMirror.keyOf(placed.item()))) {
                throw new BadRequest("item " + i + ": the file holds its key twice"
                        + placed.fromPartition()
                                .map(from -> " (once placed by the shard plan)")
                                .orElse(""));
            }
            items.add(placed);
        }
        return items;
    }

    /**
     * The item at the key the running shard plan gives it: a project's home, computed from its id by the codec, when
     * the file has it in another partition of its workspace (one its location does not hold). Any other item, and
     * any key the codec cannot read (which the check then refuses), as the file has it.
     */
    private Placed placed(Map<String, AttributeValue> item) {
        PrimaryKey key = TableMirror.keyOf(item);
        if (Items.isTombstone(item) || StoredItems.bookkeepingKind(key).isPresent()) {
            return new Placed(item, Optional.empty());
        }
        WorkspaceId workspace;
        Optional<ProjectId> project;
        try {
            workspace = KeyCodec.decodePartition(key.partition()).workspaceId();
            project = KeyCodec.decodeSortKey(key.sort()).project();
        } catch (IllegalArgumentException e) {
            return new Placed(item, Optional.empty());
        }
        if (project.isEmpty()) {
            return new Placed(item, Optional.empty());
        }
        ProjectLocation location = plan.locate(workspace, project.get());
        if (location.keys().contains(key)) {
            return new Placed(item, Optional.empty());
        }
        Map<String, AttributeValue> moved = new LinkedHashMap<>(item);
        moved.putAll(TableMirror.keyOf(location.home()));
        return new Placed(moved, Optional.of(key.partition()));
    }

    /** A 422 naming every item the API could not have written, by key and reason; nothing is imported then. */
    private void requireWritable(List<Map<String, AttributeValue>> items, boolean bookkeeping) {
        List<WritableItems.Verdict> verdicts = new ArrayList<>();
        items.forEach(item -> verdicts.add(writable.check(item, bookkeeping)));
        Map<Integer, String> homeless = withoutWorkspace(items, verdicts);
        List<Map<String, Object>> refused = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String withoutWorkspace = homeless.get(i);
            Optional<String> reason = verdicts.get(i).refused().or(() -> Optional.ofNullable(withoutWorkspace));
            if (reason.isPresent()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("item", i);
                entry.putAll(skip(items.get(i), reason.get()));
                refused.add(entry);
            }
        }
        if (!refused.isEmpty()) {
            throw new BadRequest(
                    422,
                    refused.size() + " of " + items.size()
                            + " items are not what the API could have written; nothing was imported",
                    Map.of("refused", refused));
        }
    }

    /**
     * The projects whose workspace will not be there to hold them, by item number, with the reason: a workspace is
     * the table's when the table has one (the file's is then skipped), else the file's; none, or one being deleted,
     * and the project would outlive it (and be listed by whoever gets its id next).
     */
    private Map<Integer, String> withoutWorkspace(
            List<Map<String, AttributeValue>> items, List<WritableItems.Verdict> verdicts) {
        Map<WorkspaceId, Map<String, AttributeValue>> inFile = new HashMap<>();
        Set<WorkspaceId> needed = new LinkedHashSet<>();
        for (int i = 0; i < items.size(); i++) {
            StoredItems.Decoded decoded = verdicts.get(i).decoded();
            if (decoded instanceof StoredItems.OfWorkspace workspace) {
                inFile.put(workspace.workspace().id(), items.get(i));
            } else if (decoded instanceof StoredItems.OfProject project) {
                needed.add(project.project().workspaceId());
            }
        }
        Map<WorkspaceId, Map<String, AttributeValue>> inTable = workspacesInTable(needed);
        Map<Integer, String> homeless = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            if (verdicts.get(i).decoded() instanceof StoredItems.OfProject project) {
                WorkspaceId id = project.project().workspaceId();
                Map<String, AttributeValue> workspace = inTable.getOrDefault(id, inFile.get(id));
                if (workspace == null) {
                    homeless.put(
                            i,
                            "its workspace " + id.value() + " is neither in the file nor in the table, and the API"
                                    + " creates no project outside one");
                } else if (Items.isPurging(workspace)) {
                    homeless.put(i, "its workspace " + id.value() + " is being deleted");
                }
            }
        }
        return homeless;
    }

    /** The workspace items the table holds of {@code ids}: strongly consistent BatchGetItems of 100 keys. */
    private Map<WorkspaceId, Map<String, AttributeValue>> workspacesInTable(Set<WorkspaceId> ids) {
        Map<WorkspaceId, Map<String, AttributeValue>> found = new HashMap<>();
        List<WorkspaceId> all = new ArrayList<>(ids);
        for (int from = 0; from < all.size(); from += BATCH_GET_KEYS) {
            List<Map<String, AttributeValue>> keys =
                    all.subList(from, Math.min(all.size(), from + BATCH_GET_KEYS)).stream()
                            .map(id -> TableMirror.keyOf(KeyCodec.workspaceKey(id)))
                            .toList();
            Map<String, KeysAndAttributes> request = Map.of(
                    mirror.table(),
                    KeysAndAttributes.builder().keys(keys).consistentRead(true).build());
            while (!request.isEmpty()) {
                BatchGetItemResponse response = mirror.client()
                        .batchGetItem(BatchGetItemRequest.builder()
                                .requestItems(request)
                                .build());
                response.responses()
                        .getOrDefault(mirror.table(), List.of())
                        .forEach(item -> found.put(
                                KeyCodec.decodePartition(
                                                item.get(KeyCodec.PARTITION_KEY).s())
                                        .workspaceId(),
                                item));
                request = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            }
        }
        return found;
    }

    /** Writes each item where no item has its key (one conditional PutItem each); the import's report. */
    private Map<String, Object> write(List<Map<String, AttributeValue>> items) {
        Expression absent = Condition.attributeNotExists(KeyCodec.PARTITION_KEY).build();
        int imported = 0;
        List<Map<String, Object>> skipped = new ArrayList<>();
        for (Map<String, AttributeValue> item : items) {
            try {
                mirror.client()
                        .putItem(PutItemRequest.builder()
                                .tableName(mirror.table())
                                .item(item)
                                .conditionExpression(absent.expression())
                                .expressionAttributeNames(absent.names())
                                .expressionAttributeValues(absent.valuesOrNull())
                                .build());
                mirror.put(item);
                imported++;
            } catch (ConditionalCheckFailedException e) {
                skipped.add(skip(item, "an item with this key exists"));
            } catch (software.amazon.awssdk.services.dynamodb.model.DynamoDbException e) {
                // An item DynamoDB itself refuses (too large, a key of the wrong type): skipped, said why.
                skipped.add(skip(
                        item, "the engine refused it: " + e.awsErrorDetails().errorMessage()));
            }
        }
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("items", items.size());
        report.put("imported", imported);
        report.put("skipped", skipped);
        return report;
    }

    private static Map<String, Object> skip(Map<String, AttributeValue> item, String reason) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("partition", item.get(KeyCodec.PARTITION_KEY).s());
        entry.put("sort", item.get(KeyCodec.SORT_KEY).s());
        entry.put("reason", reason);
        return entry;
    }
}
