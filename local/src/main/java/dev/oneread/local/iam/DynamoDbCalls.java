package dev.oneread.local.iam;

import dev.oneread.local.template.SamTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What IAM authorizes for one DynamoDB call (DynamoDB developer guide, "Using IAM policy conditions for fine-grained
 * access control", and the service authorization reference's resource types): the action {@code dynamodb:<Target>}
 * on the table's ARN, or on {@code table/T/index/I} for a Query or Scan of an index; {@code dynamodb:LeadingKeys}, the
 * partition key values the call names. A batch is one request per table it names, each with the keys of that table.
 *
 * <pre>{@code List<IamRequest> requests = calls.of("DynamoDB_20120810.PutItem", body);}</pre>
 */
public final class DynamoDbCalls {
    public static final String LEADING_KEYS = "dynamodb:LeadingKeys";
    private static final String TARGET_PREFIX = "DynamoDB_20120810.";
    /** A key condition's equality on one attribute: {@code #pk = :pk}, {@code EntityRef = :v}. */
    private static final Pattern EQUALITY = Pattern.compile("(#?[A-Za-z0-9_]+)\\s*=\\s*(:[A-Za-z0-9_]+)");

    private final String tableKey;
    private final Map<String, String> indexKeys;

    /**
     * @param tableKey  the partition key attribute of every table here (the template's one data table)
     * @param indexKeys each index's partition key attribute, by index name
     */
    public DynamoDbCalls(String tableKey, Map<String, String> indexKeys) {
        this.tableKey = tableKey;
        this.indexKeys = Map.copyOf(indexKeys);
    }

    /** The key attributes of the template's first table and its global secondary indexes. */
    public static DynamoDbCalls of(SamTemplate template) {
        Map<String, Object> table = template.resourcesOfType("AWS::DynamoDB::Table").values().stream()
                .map(r -> SamTemplate.map(r.get("Properties")))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("template.yaml has no table"));
        Map<String, String> indexes = new LinkedHashMap<>();
        for (Object index : SamTemplate.list(table.get("GlobalSecondaryIndexes"))) {
            Map<String, Object> gsi = SamTemplate.map(index);
            indexes.put(String.valueOf(gsi.get("IndexName")), hashKey(gsi));
        }
        return new DynamoDbCalls(hashKey(table), indexes);
    }

    private static String hashKey(Map<String, Object> definition) {
        return SamTemplate.list(definition.get("KeySchema")).stream()
                .map(SamTemplate::map)
                .filter(k -> "HASH".equals(k.get("KeyType")))
                .map(k -> String.valueOf(k.get("AttributeName")))
                .findFirst()
                .orElseThrow();
    }

    /** The requests IAM authorizes for a call with this X-Amz-Target and JSON body. */
    public List<IamRequest> of(String target, Map<String, Object> body) {
        String operation = target.startsWith(TARGET_PREFIX) ? target.substring(TARGET_PREFIX.length()) : target;
        String action = "dynamodb:" + operation;
        return switch (operation) {
            case "GetItem", "DeleteItem", "UpdateItem" ->
                List.of(request(action, table(body), keysOf(tableKey, List.of(body.get("Key")))));
            case "PutItem" -> List.of(request(action, table(body), keysOf(tableKey, List.of(body.get("Item")))));
            case "Query" -> List.of(query(action, body));
            case "Scan" -> List.of(new IamRequest(action, resource(body), Map.of()));
            case "BatchWriteItem" -> batch(action, body, true);
            case "BatchGetItem" -> batch(action, body, false);
            default -> List.of(new IamRequest(action, body.containsKey("TableName") ? resource(body) : "*", Map.of()));
        };
    }

    private static String table(Map<String, Object> body) {
        return PolicyValues.tableArn(String.valueOf(body.get("TableName")));
    }

    /** The table, or its index for a call that names one. */
    private static String resource(Map<String, Object> body) {
        Object index = body.get("IndexName");
        return index == null ? table(body) : table(body) + "/index/" + index;
    }

    private IamRequest query(String action, Map<String, Object> body) {
        Object index = body.get("IndexName");
        String key = index == null ? tableKey : indexKeys.getOrDefault(String.valueOf(index), tableKey);
        Map<String, Object> names = SamTemplate.map(body.get("ExpressionAttributeNames"));
        Map<String, Object> values = SamTemplate.map(body.get("ExpressionAttributeValues"));
        Set<String> leading = new LinkedHashSet<>();
        Matcher equality = EQUALITY.matcher(String.valueOf(body.getOrDefault("KeyConditionExpression", "")));
        while (equality.find()) {
            String attribute = equality.group(1);
            String name = attribute.startsWith("#") ? String.valueOf(names.get(attribute)) : attribute;
            if (name.equals(key)) {
                leading.add(stringValue(values.get(equality.group(2))));
            }
        }
        // The legacy KeyConditions form, should anything still send it.
        Map<String, Object> legacy =
                SamTemplate.map(SamTemplate.map(body.get("KeyConditions")).get(key));
        SamTemplate.list(legacy.get("AttributeValueList")).forEach(v -> leading.add(stringValue(v)));
        return new IamRequest(action, resource(body), Map.of(LEADING_KEYS, List.copyOf(leading)));
    }

    private List<IamRequest> batch(String action, Map<String, Object> body, boolean write) {
        List<IamRequest> requests = new ArrayList<>();
        SamTemplate.map(body.get("RequestItems")).forEach((tableName, items) -> {
            List<Object> keys = new ArrayList<>();
            if (write) {
                for (Object entry : SamTemplate.list(items)) {
                    Map<String, Object> write1 = SamTemplate.map(entry);
                    keys.add(SamTemplate.map(write1.get("PutRequest")).get("Item"));
                    keys.add(SamTemplate.map(write1.get("DeleteRequest")).get("Key"));
                }
            } else {
                keys.addAll(SamTemplate.list(SamTemplate.map(items).get("Keys")));
            }
            requests.add(request(action, PolicyValues.tableArn(tableName), keysOf(tableKey, keys)));
        });
        return requests;
    }

    private static IamRequest request(String action, String resource, List<String> leadingKeys) {
        return new IamRequest(action, resource, Map.of(LEADING_KEYS, leadingKeys));
    }

    /** The partition key's value in each of these items or keys (those without one left out). */
    private static List<String> keysOf(String key, List<Object> items) {
        Set<String> values = new LinkedHashSet<>();
        for (Object item : items) {
            Object value = SamTemplate.map(item).get(key);
            if (value != null) {
                values.add(stringValue(value));
            }
        }
        return List.copyOf(values);
    }

    /** An attribute value's text: {@code {"S": "WS#acme"}} is {@code WS#acme}. */
    private static String stringValue(Object attributeValue) {
        Map<String, Object> typed = SamTemplate.map(attributeValue);
        return typed.isEmpty()
                ? String.valueOf(attributeValue)
                : String.valueOf(typed.values().iterator().next());
    }
}
