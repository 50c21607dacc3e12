package dev.oneread.local.console;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.store.DynamoJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Seed data a team shares: the table exported as {@code {"Items": [...]}} in DynamoDB JSON (what {@code aws
 * dynamodb scan} prints), and such a file imported with one conditional PutItem per item, so an item that exists
 * is skipped and reported, never overwritten. A file is checked whole before the first write: a bad one changes
 * nothing.
 *
 * <p>An import takes only what the API could have written, as {@link WritableItems} judges it; idempotency records
 * and hot-tenant report entries only when asked for.
 */
final class Fixtures {
    /** Enough for seed data; a larger file is a restore, which is not what the console is for. */
    static final int MAX_ITEMS = 25_000;

    private final TableMirror mirror;
    private final WritableItems writable;

    Fixtures(TableMirror mirror, WritableItems writable) {
        this.mirror = mirror;
        this.writable = writable;
    }

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
        List<Map<String, AttributeValue>> items = items(file);
        requireWritable(items, bookkeeping);
        return write(items);
    }

    /** The file's items, each with non-empty string keys and no key twice; the first fault as a BadRequest. */
    private static List<Map<String, AttributeValue>> items(Map<String, Object> file) {
        if (!(file.get("Items") instanceof List<?> list)) {
            throw new BadRequest("a fixture file is an object with an \"Items\" array");
        }
        if (list.size() > MAX_ITEMS) {
            throw new BadRequest("a fixture file holds at most " + MAX_ITEMS + " items");
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
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
            if (!keys.add(new PrimaryKey(pk.s(), sk.s()))) {
                throw new BadRequest("item " + i + ": the file holds its key twice");
            }
            items.add(item);
        }
        return items;
    }

    /** A 422 naming every item the API could not have written, by key and reason; nothing is imported then. */
    private void requireWritable(List<Map<String, AttributeValue>> items, boolean bookkeeping) {
        List<Map<String, Object>> refused = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Optional<String> reason = writable.check(items.get(i), bookkeeping).refused();
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
