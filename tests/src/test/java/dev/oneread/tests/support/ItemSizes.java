package dev.oneread.tests.support;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's documented item size and read cost, computed independently of the engine, so that a test can
 * say what a request should have cost on DynamoDB and compare it with what the engine reported. Where the
 * local engine reports otherwise, {@link EngineDeviations} says so.
 */
public final class ItemSizes {
    private static final BigDecimal HALF = new BigDecimal("0.5");

    private ItemSizes() {}

    /**
     * Eventually consistent read units for reading these items in one Query: the total size rounded up to
     * 4 KB blocks, halved, and never less than one block, since "queries that do not return results consume
     * the minimum number of read capacity units for that type of read operation" (DynamoDB API Reference,
     * Query).
     */
    public static BigDecimal eventuallyConsistentReadUnits(List<Map<String, AttributeValue>> items) {
        long bytes = items.stream().mapToLong(ItemSizes::size).sum();
        long blocks = Math.max(1, (bytes + 4095) / 4096);
        return HALF.multiply(BigDecimal.valueOf(blocks));
    }

    public static long size(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            size += e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8).length + size(e.getValue());
        }
        return size;
    }

    private static long size(AttributeValue value) {
        return switch (value.type()) {
            case S -> value.s().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            case N -> numberSize(value.n());
            case BOOL, NUL -> 1;
            case L -> 3 + value.l().stream().mapToLong(v -> 1 + size(v)).sum();
            case M -> 3 + value.m().size() + size(value.m());
            default -> throw new IllegalArgumentException("size of " + value.type() + " not modelled");
        };
    }

    /** 1 byte plus 1 per two significant digits (DynamoDB's rule for numbers). */
    private static long numberSize(String n) {
        BigDecimal number = new BigDecimal(n).stripTrailingZeros();
        if (number.signum() == 0) {
            return 1;
        }
        int digits = number.precision();
        int exponent = number.precision() - number.scale() - 1;
        long size = 1 + (digits + 1) / 2 + (digits % 2 == 0 && Math.floorMod(exponent, 2) == 0 ? 1 : 0);
        return size + (number.signum() < 0 ? 1 : 0);
    }
}
