package dev.oneread.keys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * How the cross-workspace index spreads its entries: into {@code shards} partitions per status, and as many for
 * the workspace registry. An entry's shard is {@code crc32(id) mod shards + 1}, computed from the id alone, so a
 * write knows its index partition without a read, and a listing reads every shard of one status at once.
 * Without the shards a status would be one index partition, and its 1,000 write units per second would cap the
 * writes of the whole table (a throttled GSI throttles the base table's writes too).
 *
 * <p>Changing the count moves every entry to another shard: it takes a backfill (BackfillIndex) to re-key.
 *
 * <pre>{@code IndexPlan index = IndexPlan.of(8); String partition = index.projectPartition("ACTIVE", id);}</pre>
 */
public record IndexPlan(int shards) {
    /** The template's default (IndexShards). */
    public static final int DEFAULT_SHARDS = 8;

    public IndexPlan {
        if (shards < 1 || shards > KeyCodec.MAX_SHARDS) {
            throw new IllegalArgumentException("IndexShards must be 1.." + KeyCodec.MAX_SHARDS);
        }
    }

    public static IndexPlan of(int shards) {
        return new IndexPlan(shards);
    }

    public static IndexPlan defaults() {
        return new IndexPlan(DEFAULT_SHARDS);
    }

    /** The index partition of a project with {@code status}: {@code STATUS#ACTIVE#03}. */
    public String projectPartition(String status, ProjectId projectId) {
        return KeyCodec.statusIndexPartition(status, shardOf(projectId.value()));
    }

    /** The index partition of a workspace in the registry: {@code WSREG#05}. */
    public String workspacePartition(WorkspaceId workspaceId) {
        return KeyCodec.registryIndexPartition(shardOf(workspaceId.value()));
    }

    /** Every index partition of one status, in shard order: what a listing by status reads. */
    public ListPartitions statusPartitions(String status) {
        List<String> out = new ArrayList<>();
        for (int shard = 1; shard <= shards; shard++) {
            out.add(KeyCodec.statusIndexPartition(status, shard));
        }
        return new ListPartitions(out, false);
    }

    /** Every partition of the workspace registry, in shard order. */
    public ListPartitions registryPartitions() {
        List<String> out = new ArrayList<>();
        for (int shard = 1; shard <= shards; shard++) {
            out.add(KeyCodec.registryIndexPartition(shard));
        }
        return new ListPartitions(out, false);
    }

    private int shardOf(String id) {
        CRC32 crc = new CRC32();
        crc.update(id.getBytes(StandardCharsets.US_ASCII));
        return (int) (crc.getValue() % shards) + 1;
    }
}
