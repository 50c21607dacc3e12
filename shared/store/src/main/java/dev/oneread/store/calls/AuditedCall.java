package dev.oneread.store.calls;

import dev.oneread.keys.KeyCodec;
import dev.oneread.store.items.DynamoJson;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;

/**
 * One DynamoDB request as it went over the wire (each attempt of a retried call is one): what it addressed,
 * its expressions, what it read and returned, and the capacity it consumed. The console shows these; the
 * response headers and the log line only count them (the key and the expression values can hold user data,
 * so no log ever prints this record).
 *
 * @param index             the secondary index queried; null for the table
 * @param partition         the partition key value the store addressed
 * @param key               the item's key, for GetItem, PutItem, UpdateItem and DeleteItem; null for a Query
 * @param itemsRead         items DynamoDB read (ScannedCount; 1 or 0 for a GetItem); null for a write
 * @param itemsReturned     items it returned (Count; 1 or 0 for a GetItem); null for a write
 * @param capacity          capacity units consumed; null while unanswered, or for a failure nobody is billed
 * @param capacityEstimated true when DynamoDB reported none and {@link dev.oneread.store.items.ItemSize} worked it
 *                          out: a refused conditional write is billed, but its error carries no ConsumedCapacity
 * @param error             the SDK exception a failed call ended with, by its simple name; null on success
 * @param throttlingReasons the reasons DynamoDB gave when it throttled this attempt (e.g.
 *                          {@code TableWriteKeyRangeThroughputExceeded}); empty when it did not
 */
public record AuditedCall(
        String operation,
        String table,
        String index,
        String partition,
        Map<String, AttributeValue> key,
        Expressions expressions,
        Integer itemsRead,
        Integer itemsReturned,
        BigDecimal capacity,
        boolean capacityEstimated,
        String error,
        List<String> throttlingReasons) {

    public AuditedCall {
        throttlingReasons = List.copyOf(throttlingReasons);
    }

    /** The expression strings of a request, with the maps that give their placeholders meaning. */
    public record Expressions(
            String keyCondition,
            String condition,
            String update,
            String filter,
            String projection,
            Map<String, String> names,
            Map<String, AttributeValue> values) {}

    /** A request on its way out, from what the store addressed and the request itself. */
    static AuditedCall sent(String operation, SdkRequest request, String partition, String index) {
        Map<String, AttributeValue> key = attributes(request.getValueForField("Key", Map.class))
                .or(() ->
                        attributes(request.getValueForField("Item", Map.class)).map(AuditedCall::keyOf))
                .orElse(null);
        Expressions expressions = new Expressions(
                text(request, "KeyConditionExpression"),
                text(request, "ConditionExpression"),
                text(request, "UpdateExpression"),
                text(request, "FilterExpression"),
                text(request, "ProjectionExpression"),
                names(request),
                attributes(request.getValueForField("ExpressionAttributeValues", Map.class))
                        .orElse(null));
        return new AuditedCall(
                operation,
                text(request, "TableName"),
                index,
                partition,
                key,
                expressions,
                null,
                null,
                null,
                false,
                null,
                List.of());
    }

    /** This call, answered: items read and returned, and the capacity DynamoDB reported. */
    AuditedCall answered(SdkResponse response) {
        boolean found = attributes(response.getValueForField("Item", Map.class)).isPresent();
        Integer returned = response.getValueForField("Count", Integer.class)
                .orElse(operation.equals("GetItem") ? (found ? 1 : 0) : null);
        Integer read = response.getValueForField("ScannedCount", Integer.class).orElse(returned);
        BigDecimal units = capacity(response);
        return outcome(read, returned, units, false, null);
    }

    /**
     * The capacity a response reports: one ConsumedCapacity for a single-item call or a Query, and a list of them
     * (one per table) for a batch call, summed.
     */
    private static BigDecimal capacity(SdkResponse response) {
        if (response instanceof BatchWriteItemResponse batch) {
            return batch.hasConsumedCapacity()
                    ? batch.consumedCapacity().stream()
                            .map(c -> BigDecimal.valueOf(c.capacityUnits()))
                            .reduce(BigDecimal.ZERO, BigDecimal::add)
                    : null;
        }
        return response.getValueForField("ConsumedCapacity", ConsumedCapacity.class)
                .map(ConsumedCapacity::capacityUnits)
                .map(BigDecimal::valueOf)
                .orElse(null);
    }

    /** This call, refused by its condition: billed {@code writeUnits} all the same, though DynamoDB says none. */
    AuditedCall refused(long writeUnits, String error) {
        return outcome(null, null, BigDecimal.valueOf(writeUnits), true, error);
    }

    /** The same call, with what came back. */
    private AuditedCall outcome(Integer read, Integer returned, BigDecimal units, boolean refused, String error) {
        return new AuditedCall(
                operation,
                table,
                index,
                partition,
                key,
                expressions,
                read,
                returned,
                units,
                refused,
                error,
                throttlingReasons);
    }

    /** This call, failed otherwise (throttled, timed out, rejected): nothing is reported as consumed. */
    AuditedCall failed(String error) {
        return outcome(null, null, null, false, error);
    }

    /**
     * This attempt, throttled: DynamoDB refused it for {@code reasons} and billed nothing. The SDK may retry it, as a
     * new attempt with a record of its own, so a call that ends well still counts every throttle on its way.
     */
    AuditedCall throttled(String error, List<String> reasons) {
        return new AuditedCall(
                operation, table, index, partition, key, expressions, null, null, null, false, error, reasons);
    }

    /** True when DynamoDB throttled this attempt. */
    public boolean wasThrottled() {
        return !throttlingReasons.isEmpty();
    }

    /**
     * This call as JSON for the local console (keys and values in DynamoDB JSON). It holds user data, so only the
     * runner's channel carries it: never a log line, never a response.
     */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("operation", operation);
        json.put("table", table);
        json.put("index", index);
        json.put("partition", partition);
        json.put("key", DynamoJson.item(key));
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("keyCondition", expressions.keyCondition());
        e.put("condition", expressions.condition());
        e.put("update", expressions.update());
        e.put("filter", expressions.filter());
        e.put("projection", expressions.projection());
        e.put("names", expressions.names());
        e.put("values", DynamoJson.item(expressions.values()));
        json.put("expressions", e);
        json.put("itemsRead", itemsRead);
        json.put("itemsReturned", itemsReturned);
        json.put("capacity", capacity == null ? null : capacity.toPlainString());
        json.put("capacityEstimated", capacityEstimated);
        json.put("error", error);
        json.put("throttlingReasons", throttlingReasons);
        return json;
    }

    /** True for a refused write of the item at {@code itemKey}, whose capacity had to be estimated. */
    boolean refusedAt(Map<String, AttributeValue> itemKey) {
        return capacityEstimated && key != null && key.equals(itemKey);
    }

    private static Map<String, AttributeValue> keyOf(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put(KeyCodec.PARTITION_KEY, item.get(KeyCodec.PARTITION_KEY));
        key.put(KeyCodec.SORT_KEY, item.get(KeyCodec.SORT_KEY));
        return key;
    }

    private static String text(SdkRequest request, String field) {
        return request.getValueForField(field, String.class).orElse(null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> names(SdkRequest request) {
        return request.getValueForField("ExpressionAttributeNames", Map.class)
                .filter(m -> !m.isEmpty())
                .map(m -> (Map<String, String>) m)
                .orElse(null);
    }

    /** A map field of a request or response; the SDK answers an absent one with an empty map. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Optional<Map<String, AttributeValue>> attributes(Optional<Map> field) {
        return field.filter(m -> !m.isEmpty()).map(m -> (Map<String, AttributeValue>) m);
    }
}
