package dev.oneread.store.items;

import dev.oneread.model.DynamoDbNumber;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Items in DynamoDB's own JSON format ({@code {"S": "acme"}}, {@code {"N": "3"}}), as {@code aws dynamodb} prints
 * and takes them: how the console shows items, how the call detail carries them, and the fixture file format.
 *
 * <pre>{@code Map<String, Object> json = DynamoJson.item(item); Map<String, AttributeValue> back = DynamoJson.toItem(json);}</pre>
 */
public final class DynamoJson {
    private DynamoJson() {}

    /** An item (or key, or value map) as DynamoDB JSON; null stays null. */
    public static Map<String, Object> item(Map<String, AttributeValue> item) {
        if (item == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        item.forEach((name, value) -> out.put(name, value(value)));
        return out;
    }

    public static Map<String, Object> value(AttributeValue value) {
        Map<String, Object> out = new LinkedHashMap<>();
        switch (value.type()) {
            case S -> out.put("S", value.s());
            case N -> out.put("N", value.n());
            case B ->
                out.put(
                        "B",
                        java.util.Base64.getEncoder().encodeToString(value.b().asByteArray()));
            case BOOL -> out.put("BOOL", value.bool());
            case NUL -> out.put("NULL", true);
            case SS -> out.put("SS", value.ss());
            case NS -> out.put("NS", value.ns());
            case BS ->
                out.put(
                        "BS",
                        value.bs().stream()
                                .map(b -> java.util.Base64.getEncoder().encodeToString(b.asByteArray()))
                                .toList());
            case L -> out.put("L", value.l().stream().map(DynamoJson::value).toList());
            case M -> out.put("M", item(value.m()));
            default -> throw new IllegalArgumentException("an attribute value of an unknown type");
        }
        return out;
    }

    /**
     * An item from DynamoDB JSON.
     *
     * @throws IllegalArgumentException naming what is wrong, for anything that is not an item in that format
     */
    public static Map<String, AttributeValue> toItem(Object json) {
        if (!(json instanceof Map<?, ?> map) || map.isEmpty()) {
            throw new IllegalArgumentException("an item must be a non-empty object of attributes");
        }
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (!(entry.getKey() instanceof String name) || name.isEmpty()) {
                throw new IllegalArgumentException("attribute names must be non-empty strings");
            }
            item.put(name, toValue(entry.getValue(), 0));
        }
        return item;
    }

    /** DynamoDB's own limit on nesting. */
    private static final int MAX_DEPTH = 32;

    private static AttributeValue toValue(Object json, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("attribute values nest at most " + MAX_DEPTH + " levels");
        }
        if (!(json instanceof Map<?, ?> typed) || typed.size() != 1) {
            throw new IllegalArgumentException(
                    "an attribute value must be an object with one type, such as {\"S\": \"x\"}");
        }
        Map.Entry<?, ?> only = typed.entrySet().iterator().next();
        Object v = only.getValue();
        try {
            return switch (String.valueOf(only.getKey())) {
                case "S" -> AttributeValue.fromS((String) v);
                case "N" -> AttributeValue.fromN(number(v));
                case "B" ->
                    AttributeValue.fromB(
                            SdkBytes.fromByteArray(java.util.Base64.getDecoder().decode((String) v)));
                case "BOOL" -> AttributeValue.fromBool((Boolean) v);
                case "NULL" -> AttributeValue.fromNul(Boolean.TRUE.equals(v) ? true : fail("NULL must be true"));
                case "SS" -> AttributeValue.fromSs(strings(v));
                case "NS" ->
                    AttributeValue.fromNs(
                            strings(v).stream().map(DynamoJson::number).toList());
                case "BS" ->
                    AttributeValue.fromBs(strings(v).stream()
                            .map(s -> SdkBytes.fromByteArray(
                                    java.util.Base64.getDecoder().decode(s)))
                            .toList());
                case "L" -> {
                    List<AttributeValue> list = new ArrayList<>();
                    for (Object element : (List<?>) v) {
                        list.add(toValue(element, depth + 1));
                    }
                    yield AttributeValue.fromL(list);
                }
                case "M" -> {
                    Map<String, AttributeValue> m = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                        m.put((String) e.getKey(), toValue(e.getValue(), depth + 1));
                    }
                    yield AttributeValue.fromM(m);
                }
                default -> throw new IllegalArgumentException("unknown attribute type " + only.getKey());
            };
        } catch (ClassCastException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "the value of a " + only.getKey() + " attribute has the wrong JSON type");
        }
    }

    /**
     * An N (or an NS element), as the string DynamoDB JSON writes or a JSON number, checked in one pass before
     * anything parses it ({@link DynamoDbNumber}).
     */
    private static String number(Object v) {
        String text = v instanceof String || v instanceof Number ? v.toString() : null;
        if (!DynamoDbNumber.isValid(text)) {
            throw new IllegalArgumentException("N must be " + DynamoDbNumber.RULE);
        }
        return text;
    }

    private static List<String> strings(Object v) {
        List<String> out = new ArrayList<>();
        for (Object element : (List<?>) v) {
            out.add((String) element);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("a set must not be empty");
        }
        return out;
    }

    private static boolean fail(String message) {
        throw new IllegalArgumentException(message);
    }
}
