package dev.oneread.model;

/**
 * What one partition serves a second: DynamoDB's per-partition limits, 3,000 read and 1,000 write units, for each
 * partition key value of a table or of a global secondary index, in on-demand and provisioned mode alike (Developer
 * Guide, "Best practices for designing and using partition keys effectively"). Declared here once: a job's share
 * ({@code JobPace.Share}), the local engine's limits ({@code PartitionLimits}, which hands them to engine.js) and the
 * console's Heat tab (in each heat frame) all read it.
 *
 * <pre>{@code PartitionCapacity.DYNAMODB.times(0.25) == new PartitionCapacity(750, 250)}</pre>
 *
 * @param readUnitsPerSecond  read units one partition serves a second
 * @param writeUnitsPerSecond write units one partition serves a second
 */
public record PartitionCapacity(double readUnitsPerSecond, double writeUnitsPerSecond) {
    /** DynamoDB's own. */
    public static final PartitionCapacity DYNAMODB = new PartitionCapacity(3_000, 1_000);

    public PartitionCapacity {
        if (!(readUnitsPerSecond >= 0) || !(writeUnitsPerSecond >= 0)) {
            throw new IllegalArgumentException("a partition's capacity is 0 units a second or more");
        }
    }

    /** {@code fraction} of this capacity, read and write alike. */
    public PartitionCapacity times(double fraction) {
        return new PartitionCapacity(readUnitsPerSecond * fraction, writeUnitsPerSecond * fraction);
    }
}
