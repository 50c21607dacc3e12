package dev.oneread.tests.support;

import dev.oneread.json.Json;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * What a console test checks after an item action in the page: the item as the engine holds it, read with the test's
 * own client, and the action's entry in the console's request log with its calls.
 *
 * <pre>{@code
 * assertThat(ConsoleItems.item(engine, table, "WS#acme", "META")).isNotEmpty();
 * assertThat(ConsoleItems.operations(ConsoleItems.logEntry(api, "item/edit", 200))).containsExactly("GetItem", "PutItem");
 * }</pre>
 */
public final class ConsoleItems {
    private static final String LOG = "/_console/api/";

    private ConsoleItems() {}

    /** The item now, read consistently; empty when there is none. */
    public static Map<String, AttributeValue> item(TestEngine engine, String table, String partition, String sort) {
        return engine.client
                .getItem(GetItemRequest.builder()
                        .tableName(table)
                        .consistentRead(true)
                        .key(Map.of("EntityRef", AttributeValue.fromS(partition), "Detail", AttributeValue.fromS(sort)))
                        .build())
                .item();
    }

    /** Every entry of the console's request log for {@code action} (item/edit, ...) with this status, newest first. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> logEntries(LocalApi api, String action, int status) throws Exception {
        List<Map<String, Object>> entries =
                (List<Map<String, Object>>) Json.readObject(api.send("GET", LOG + "requests", null, List.of(), false)
                                .body())
                        .get("requests");
        return entries.stream()
                .filter(e -> (LOG + action).equals(e.get("path")))
                .filter(e -> ((Number) e.get("status")).intValue() == status)
                .toList();
    }

    /** The newest entry for {@code action} with this status. */
    public static Map<String, Object> logEntry(LocalApi api, String action, int status) throws Exception {
        List<Map<String, Object>> found = logEntries(api, action, status);
        if (found.isEmpty()) {
            throw new AssertionError("no " + status + " entry for " + action + " in the console's request log");
        }
        return found.get(0);
    }

    /** The DynamoDB operations an entry made, in order. */
    @SuppressWarnings("unchecked")
    public static List<String> operations(Map<String, Object> entry) {
        return ((List<Map<String, Object>>) entry.get("calls"))
                .stream().map(c -> (String) c.get("operation")).toList();
    }
}
