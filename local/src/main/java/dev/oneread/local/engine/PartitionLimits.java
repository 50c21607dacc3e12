package dev.oneread.local.engine;

import dev.oneread.model.PartitionCapacity;
import java.math.BigDecimal;

/**
 * How the local engine enforces DynamoDB's per-partition limits: {@code scale} times {@link
 * PartitionCapacity#DYNAMODB} (3,000 read units and 1,000 write units per second) for each partition key value of a table or an index ({@link #DYNAMODB}, the default, is
 * DynamoDB's own limits; {@link #OFF} turns them off; 0.05 divides every limit by 20 so that a 2-core machine can
 * reach them). The engine's {@code --partition-limits} option.
 */
public record PartitionLimits(double scale) {
    public static final PartitionLimits OFF = new PartitionLimits(0);
    public static final PartitionLimits DYNAMODB = new PartitionLimits(1);

    public PartitionLimits {
        if (!Double.isFinite(scale) || scale < 0) {
            throw new IllegalArgumentException(
                    "partition limits: a scale >= 0 (1 = DynamoDB's limits, 0 = off), not " + scale);
        }
    }

    /** Parses the option's text: a decimal scale such as {@code 1}, {@code 0} or {@code 0.05}. */
    public static PartitionLimits parse(String text) {
        try {
            return new PartitionLimits(Double.parseDouble(text.strip()));
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "partition limits: a scale >= 0 (1 = DynamoDB's limits, 0 = off, 0.05 = every limit / 20), not "
                            + text);
        }
    }

    public boolean enforced() {
        return scale > 0;
    }

    /** Read units per second one partition serves at this scale. */
    public double readUnitsPerSecond() {
        return capacity().readUnitsPerSecond();
    }

    /** Write units per second one partition serves at this scale. */
    public double writeUnitsPerSecond() {
        return capacity().writeUnitsPerSecond();
    }

    /** What one partition of this engine serves a second: DynamoDB's capacity times the scale (nothing when off). */
    public PartitionCapacity capacity() {
        return PartitionCapacity.DYNAMODB.times(scale);
    }

    /** The scale as the engine's option takes it, without an exponent: {@code 0.05}, not {@code 5.0E-2}. */
    public String optionText() {
        return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
    }

    /**
     * A job's share of a partition (the template's JobPartitionShare, a fraction of DynamoDB's partition, as
     * JobPace reads it) that takes the same fraction of this engine's partitions: the share times the scale. With
     * the limits off, or at DynamoDB's own, it stays as it is.
     */
    public String scaledJobShare(String fraction) {
        if (!enforced() || scale == 1) {
            return fraction;
        }
        return new BigDecimal(fraction.strip())
                .multiply(BigDecimal.valueOf(scale))
                .stripTrailingZeros()
                .toPlainString();
    }

    @Override
    public String toString() {
        return optionText();
    }
}
