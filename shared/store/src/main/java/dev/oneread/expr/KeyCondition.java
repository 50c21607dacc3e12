package dev.oneread.expr;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A typed KeyConditionExpression: partition key equality, and at most one sort key condition, named as in
 * DynamoDB's own documentation.
 *
 * <pre>{@code
 * Expression e = KeyCondition.partitionEquals("EntityRef", "WS#acme")
 *         .sortBeginsWith("Detail", "PROJ#")
 *         .build();
 * // #er = :er AND begins_with(#d, :p), {#er=EntityRef, #d=Detail}, {:er=WS#acme, :p=PROJ#}
 * }</pre>
 */
public final class KeyCondition {
    private final String partitionAttribute;
    private final AttributeValue partitionValue;
    private final SortCondition sort;

    private KeyCondition(String partitionAttribute, AttributeValue partitionValue, SortCondition sort) {
        this.partitionAttribute = partitionAttribute;
        this.partitionValue = partitionValue;
        this.sort = sort;
    }

    public static KeyCondition partitionEquals(String attribute, String value) {
        return partitionEquals(attribute, AttributeValue.fromS(value));
    }

    public static KeyCondition partitionEquals(String attribute, AttributeValue value) {
        Placeholders.initialsOf(attribute);
        return new KeyCondition(attribute, value, null);
    }

    public KeyCondition sortEquals(String attribute, String value) {
        return withSort(new SortCondition(SortOperator.EQ, attribute, s(value), null));
    }

    public KeyCondition sortLessThan(String attribute, String value) {
        return withSort(new SortCondition(SortOperator.LT, attribute, s(value), null));
    }

    public KeyCondition sortLessThanOrEqualTo(String attribute, String value) {
        return withSort(new SortCondition(SortOperator.LE, attribute, s(value), null));
    }

    public KeyCondition sortGreaterThan(String attribute, String value) {
        return withSort(new SortCondition(SortOperator.GT, attribute, s(value), null));
    }

    public KeyCondition sortGreaterThanOrEqualTo(String attribute, String value) {
        return withSort(new SortCondition(SortOperator.GE, attribute, s(value), null));
    }

    public KeyCondition sortBetween(String attribute, String low, String high) {
        return withSort(new SortCondition(SortOperator.BETWEEN, attribute, s(low), s(high)));
    }

    public KeyCondition sortBeginsWith(String attribute, String prefix) {
        return withSort(new SortCondition(SortOperator.BEGINS_WITH, attribute, s(prefix), null));
    }

    /** Applies one of the sort operators by its symbol ({@code =}, {@code <}, ... {@code BETWEEN}). */
    public KeyCondition sort(SortOperator operator, String attribute, String value, String high) {
        return withSort(
                new SortCondition(operator, attribute, s(value), operator == SortOperator.BETWEEN ? s(high) : null));
    }

    public Expression build() {
        Placeholders placeholders = new Placeholders();
        return placeholders.build(render(placeholders));
    }

    /** The condition's text, its placeholders taken from {@code placeholders}: shared with a filter and projection. */
    String render(Placeholders placeholders) {
        String pkName = placeholders.name(partitionAttribute);
        String pkValue = placeholders.value(Placeholders.initials(partitionAttribute), partitionValue);
        String text = pkName + " = " + pkValue;
        if (sort != null) {
            text += " AND " + sort.render(placeholders);
        }
        return text;
    }

    private KeyCondition withSort(SortCondition condition) {
        if (sort != null) {
            throw new IllegalStateException("a key condition takes at most one sort key condition");
        }
        if (condition.attribute().equals(partitionAttribute)) {
            throw new IllegalArgumentException("the sort key must differ from the partition key");
        }
        Placeholders.initialsOf(condition.attribute());
        return new KeyCondition(partitionAttribute, partitionValue, condition);
    }

    private static AttributeValue s(String value) {
        if (value == null) {
            throw new IllegalArgumentException("key condition value must not be null");
        }
        return AttributeValue.fromS(value);
    }

    /** The operators DynamoDB allows on a sort key. */
    public enum SortOperator {
        EQ("="),
        LT("<"),
        LE("<="),
        GT(">"),
        GE(">="),
        BETWEEN("BETWEEN"),
        BEGINS_WITH("begins_with");

        private final String symbol;

        SortOperator(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        public static SortOperator fromSymbol(String symbol) {
            for (SortOperator operator : values()) {
                if (operator.symbol.equalsIgnoreCase(symbol)) {
                    return operator;
                }
            }
            throw new IllegalArgumentException("unknown sort key operator: " + symbol);
        }
    }

    private record SortCondition(SortOperator operator, String attribute, AttributeValue value, AttributeValue high) {
        String render(Placeholders placeholders) {
            String name = placeholders.name(attribute);
            return switch (operator) {
                case BEGINS_WITH -> "begins_with(" + name + ", " + placeholders.value("p", value) + ")";
                case BETWEEN ->
                    name + " BETWEEN " + placeholders.value("lo", value) + " AND " + placeholders.value("hi", high);
                default ->
                    name + " " + operator.symbol() + " " + placeholders.value(Placeholders.initials(attribute), value);
            };
        }
    }
}
