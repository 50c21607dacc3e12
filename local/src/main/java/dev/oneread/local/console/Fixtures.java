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
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * Seed data a team shares: the table exported as {@code {"Items": [...]}} in DynamoDB JSON (what {@code aws
 * dynamodb scan} prints), and such a file imported with one conditional PutItem per item, so an item that exists
 * is skipped and reported, never overwritten. A file is checked whole before the first write: a bad one changes
 * nothing.
 */
final class Fixtures {
    /** Enough for seed data; a larger file is a restore, which is not what the console is for. */
    static final int MAX_ITEMS = 25_000;

    private final TableMirror mirror;

    Fixtures(TableMirror mirror) {
        this.mirror = mirror;
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
     * @throws BadRequest for a file that is not a list of items with string keys, with the first fault named
     */
    Map<String, Object> importFile(Map<String, Object> file) {
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
        return Map.of(
                "partition", item.get(KeyCodec.PARTITION_KEY).s(),
                "sort", item.get(KeyCodec.SORT_KEY).s(),
                "reason", reason);
    }
}
