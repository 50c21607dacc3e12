package dev.oneread.store.items;

import dev.oneread.model.DynamoDbNumber;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's item size rule (Developer Guide, "Item sizes and formats"): the UTF-8 bytes of every attribute
 * name plus the size of its value, where a string counts its UTF-8 bytes, a number about one byte per two
 * significant digits plus one, a boolean or null one byte, and a list or map three bytes plus one per element
 * (and, in a map, the element's name). Used where DynamoDB bills a write but reports no capacity.
 */
public final class ItemSize {
    private static final int WRITE_UNIT_BYTES = 1024;
    private static final int READ_UNIT_BYTES = 4096;

    private ItemSize() {}

    /**
     * Write units a refused conditional write is billed (Developer Guide, "Capacity units consumed by
     * conditional writes"): by the size of the item that is there, in 1 KB units, and 1 when there is none.
     */
    public static long writeUnits(Map<String, AttributeValue> existing) {
        long bytes = bytes(existing);
        return Math.max(1, (bytes + WRITE_UNIT_BYTES - 1) / WRITE_UNIT_BYTES);
    }

    /**
     * Read units a Query that reads {@code items} consumes (Developer Guide, "Read capacity units"): their sizes
     * summed, in 4 KB units rounded up, halved when eventually consistent. What the console predicts before it
     * runs a query, to show next to what the engine reports.
     */
    public static BigDecimal queryReadUnits(Iterable<Map<String, AttributeValue>> items, boolean consistent) {
        long total = 0;
        for (Map<String, AttributeValue> item : items) {
            total += bytes(item);
        }
        long units = Math.max(1, (total + READ_UNIT_BYTES - 1) / READ_UNIT_BYTES);
        return consistent
                ? BigDecimal.valueOf(units)
                : BigDecimal.valueOf(units).divide(BigDecimal.valueOf(2));
    }

    /** The item's size by DynamoDB's rule, in bytes. */
    public static long bytes(Map<String, AttributeValue> item) {
        return item.entrySet().stream()
                .mapToLong(e -> utf8(e.getKey()) + valueBytes(e.getValue()))
                .sum();
    }

    private static long valueBytes(AttributeValue value) {
        return switch (value.type()) {
            case S -> utf8(value.s());
            case N -> numberBytes(value.n());
            case B -> value.b().asByteArray().length;
            case BOOL, NUL -> 1;
            case SS -> value.ss().stream().mapToLong(ItemSize::utf8).sum();
            case NS -> value.ns().stream().mapToLong(ItemSize::numberBytes).sum();
            case BS ->
                value.bs().stream().mapToLong(b -> b.asByteArray().length).sum();
            case L ->
                3
                        + value.l().stream()
                                .mapToLong(element -> 1 + valueBytes(element))
                                .sum();
            case M -> 3 + value.m().size() + bytes(value.m());
            default -> throw new IllegalArgumentException("unknown attribute type " + value.type());
        };
    }

    /**
     * One byte per two significant digits, plus one; counted from the text, never parsed (see {@link
     * DynamoDbNumber}).
     *
     * @throws IllegalArgumentException for a text that is no number DynamoDB stores
     */
    private static long numberBytes(String number) {
        DynamoDbNumber n = DynamoDbNumber.of(number)
                .orElseThrow(() -> new IllegalArgumentException("N must be " + DynamoDbNumber.RULE));
        return 1 + (n.isZero() ? 1 : (n.significantDigits() + 1) / 2);
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
