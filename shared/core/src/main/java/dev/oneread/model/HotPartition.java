package dev.oneread.model;

import dev.oneread.keys.WorkspaceId;
import java.time.Instant;

/**
 * One entry of the hot-tenant report: a partition over the threshold when the stats run {@code runId} counted it
 * (a workspace's own, shard 0, or one shard of a hot tenant), and the shards docs/hot-tenants.md's formula recommends.
 */
public record HotPartition(
        WorkspaceId workspaceId,
        int shard,
        long projects,
        long bytes,
        int currentShards,
        int recommendedShards,
        String runId,
        Instant asOf) {}
