package dev.oneread.store.items;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Converts between plain JSON values (String, Number, Boolean, null, List, Map) and DynamoDB attribute
 * values, for free-form documents such as workspace settings. Numbers go through BigDecimal both ways, so
 * nothing is rounded through a double.
 */
public final class AttributeValues {
    private AttributeValues() {}

    public static AttributeValue fromJson(Object value) {
        if (value == null) {
            return AttributeValue.fromNul(true);
        } else if (value instanceof String s) {
            return AttributeValue.fromS(s);
        } else if (value instanceof Boolean b) {
            return AttributeValue.fromBool(b);
        } else if (value instanceof BigDecimal d) {
            return AttributeValue.fromN(d.toPlainString());
        } else if (value instanceof Number n) {
            return AttributeValue.fromN(n.toString());
        } else if (value instanceof Map<?, ?> map) {
            Map<String, AttributeValue> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), fromJson(v)));
            return AttributeValue.fromM(out);
        } else if (value instanceof List<?> list) {
            List<AttributeValue> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(fromJson(v)));
            return AttributeValue.fromL(out);
        }
        throw new IllegalArgumentException(
                "not a JSON value: " + value.getClass().getSimpleName());
    }

    static Object toJson(AttributeValue value) {
        return switch (value.type()) {
            case S -> value.s();
            case N -> number(value.n());
            case BOOL -> value.bool();
            case NUL -> null;
            case M -> toJsonMap(value.m());
            case L -> {
                List<Object> out = new ArrayList<>(value.l().size());
                value.l().forEach(v -> out.add(toJson(v)));
                yield out;
            }
            default -> throw new IllegalArgumentException("no JSON form for attribute type " + value.type());
        };
    }

    public static Map<String, Object> toJsonMap(Map<String, AttributeValue> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(k, toJson(v)));
        return out;
    }

    private static Number number(String n) {
        BigDecimal decimal = new BigDecimal(n);
        if (decimal.scale() <= 0) {
            BigInteger integer = decimal.toBigIntegerExact();
            return integer.bitLength() < 64 ? (Number) integer.longValue() : integer;
        }
        return decimal;
    }
}
