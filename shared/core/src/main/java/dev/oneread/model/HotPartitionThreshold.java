package dev.oneread.model;

/**
 * When the stats job reports a partition as hot (the template's HotTenantProjectsThreshold and
 * HotTenantBytesThreshold), and how many shards it recommends: docs/hot-tenants.md's formula, {@code N = ceil(load /
 * per-partition limit x 2)}, with the partition's projects, or bytes, over their threshold as the load. A shard's
 * count stands for its tenant's whole over {@code currentShards} shards (CRC-32 spreads projects evenly), so every
 * shard of a tenant recommends about the same N.
 *
 * <pre>{@code new HotPartitionThreshold(5_000, 1L << 30).recommendedShards(12_000, 0, 1) == 5}</pre>
 */
public record HotPartitionThreshold(long projects, long bytes) {
    public HotPartitionThreshold {
        if (projects < 1 || bytes < 1) {
            throw new IllegalArgumentException("hot-tenant thresholds are positive whole numbers");
        }
    }

    /** The template's defaults: 5,000 projects, or 1 GiB, in one partition. */
    public static HotPartitionThreshold defaults() {
        return new HotPartitionThreshold(5_000, 1L << 30);
    }

    public boolean exceededBy(long partitionProjects, long partitionBytes) {
        return partitionProjects > projects || partitionBytes > bytes;
    }

    /** Shards for the tenant: 2 at least (sharding at all), 99 at most (the codec's limit). */
    public int recommendedShards(long partitionProjects, long partitionBytes, int currentShards) {
        int shards = Math.max(1, currentShards);
        double load =
                Math.max((double) partitionProjects * shards / projects, (double) partitionBytes * shards / bytes);
        return (int) Math.min(99, Math.max(2, Math.ceil(load * 2)));
    }
}
