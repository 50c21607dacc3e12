package dev.oneread.keys;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * Which workspaces are hot, and into how many shards their projects are spread. A project of a sharded
 * workspace lives in shard {@code crc32(projectId) mod N + 1}: computed from the id alone, so a point read
 * knows its partition and stays one call. CRC-32 is a fixed, documented function (unlike String.hashCode's
 * contract, which promises nothing across versions), and over a ULID's 80 random bits it spreads evenly.
 * The workspace item itself always stays at {@code WS#acme / META}.
 *
 * <p>A workspace being moved into its shards is listed in {@code migrating}: until the move is done, reads
 * also look in its unsharded partition, where not-yet-moved projects still are.
 *
 * <p>It also carries the {@link IndexPlan}: how the cross-workspace index spreads its entries.
 *
 * <pre>{@code ShardPlan plan = ShardPlan.parse("acme=10,globex=4", "");}</pre>
 */
public final class ShardPlan {
    private static final ShardPlan NONE = new ShardPlan(Map.of(), Set.of(), IndexPlan.defaults());
    private final Map<String, Integer> shards;
    private final Set<String> migrating;
    private final IndexPlan index;

    private ShardPlan(Map<String, Integer> shards, Set<String> migrating, IndexPlan index) {
        this.shards = Collections.unmodifiableMap(new LinkedHashMap<>(shards));
        this.migrating = Set.copyOf(migrating);
        this.index = index;
    }

    /** This plan, with the cross-workspace index spread over {@code index}'s shards. */
    public ShardPlan withIndex(IndexPlan index) {
        return new ShardPlan(shards, migrating, index);
    }

    /** How the cross-workspace index spreads its entries (the template's IndexShards). */
    public IndexPlan index() {
        return index;
    }

    public static ShardPlan none() {
        return NONE;
    }

    /**
     * Reads the template's HotTenantShards and HotTenantMigrating, exactly as their AllowedPatterns take them (no
     * space, no empty entry, no leading zero; TemplateValuesTest compares the two), plus what no pattern can see:
     * a migrating workspace must be sharded.
     *
     * @param hotTenantShards {@code workspace=shards,...}, e.g. {@code acme=10,globex=4}; empty for none
     * @param migrating       {@code workspace,...} being moved into their shards; each must be sharded
     * @throws IllegalArgumentException naming the entry it refuses, and why
     */
    public static ShardPlan parse(String hotTenantShards, String migrating) {
        Map<String, Integer> shards = new LinkedHashMap<>();
        for (String entry : split(hotTenantShards, "HotTenantShards")) {
            int eq = entry.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("HotTenantShards entries are workspace=shards, e.g. acme=10");
            }
            String workspace = workspace(entry.substring(0, eq), "HotTenantShards");
            String count = entry.substring(eq + 1);
            if (!SHARD_COUNT.matcher(count).matches()) {
                throw new IllegalArgumentException("HotTenantShards: the shard count of " + workspace
                        + " must be a whole number from 2 to " + KeyCodec.MAX_SHARDS);
            }
            if (shards.put(workspace, Integer.parseInt(count)) != null) {
                throw new IllegalArgumentException("HotTenantShards: " + workspace + " appears twice");
            }
        }
        Set<String> moving = new LinkedHashSet<>();
        for (String workspace : split(migrating, "HotTenantMigrating")) {
            String id = workspace(workspace, "HotTenantMigrating");
            if (!shards.containsKey(id)) {
                throw new IllegalArgumentException(
                        "HotTenantMigrating: " + id + " is migrating but has no entry in HotTenantShards");
            }
            moving.add(id);
        }
        return shards.isEmpty() ? NONE : new ShardPlan(shards, moving, IndexPlan.defaults());
    }

    /** 2 to 99 ({@link KeyCodec#MAX_SHARDS}), without a leading zero: one shard would be no sharding at all. */
    private static final Pattern SHARD_COUNT = Pattern.compile("[2-9]|[1-9][0-9]");

    private static String workspace(String raw, String parameter) {
        try {
            return WorkspaceId.of(raw).value();
        } catch (InvalidIdException e) {
            throw new IllegalArgumentException(parameter + ": '" + raw + "' is not a workspace id", e);
        }
    }

    /** Number of shards of a workspace; 0 when it is not sharded. */
    public int shardCount(WorkspaceId workspaceId) {
        return shards.getOrDefault(workspaceId.value(), 0);
    }

    public boolean isSharded(WorkspaceId workspaceId) {
        return shardCount(workspaceId) > 0;
    }

    /** True while a sharded workspace's projects may still be in its unsharded partition. */
    public boolean isMigrating(WorkspaceId workspaceId) {
        return migrating.contains(workspaceId.value());
    }

    /** The shard (1-based) of a project of a sharded workspace. */
    public int shardOf(WorkspaceId workspaceId, ProjectId projectId) {
        int count = shardCount(workspaceId);
        if (count == 0) {
            throw new IllegalArgumentException(workspaceId + " is not sharded");
        }
        CRC32 crc = new CRC32();
        crc.update(projectId.value().getBytes(StandardCharsets.US_ASCII));
        return (int) (crc.getValue() % count) + 1;
    }

    /** Where a project lives now: its shard for a sharded workspace, else the workspace's partition. */
    private String projectPartition(WorkspaceId workspaceId, ProjectId projectId) {
        return isSharded(workspaceId)
                ? KeyCodec.shardPartition(workspaceId, shardOf(workspaceId, projectId))
                : KeyCodec.workspacePartition(workspaceId);
    }

    /**
     * Where to find a project: its home, and while its workspace is migrating, first the unsharded key where it
     * may still be.
     */
    public ProjectLocation locate(WorkspaceId workspaceId, ProjectId projectId) {
        PrimaryKey home = new PrimaryKey(projectPartition(workspaceId, projectId), KeyCodec.projectSortKey(projectId));
        return isMigrating(workspaceId)
                ? ProjectLocation.moving(KeyCodec.projectKey(workspaceId, projectId), home)
                : ProjectLocation.at(home);
    }

    /**
     * The partitions a list of the workspace's projects reads: its shards, plus its own partition (first) while
     * it is migrating, or its own partition alone when it is not sharded at all.
     */
    public ListPartitions projectPartitions(WorkspaceId workspaceId) {
        List<String> out = new ArrayList<>();
        int count = shardCount(workspaceId);
        if (count == 0 || isMigrating(workspaceId)) {
            out.add(KeyCodec.workspacePartition(workspaceId));
        }
        for (int shard = 1; shard <= count; shard++) {
            out.add(KeyCodec.shardPartition(workspaceId, shard));
        }
        return new ListPartitions(out, isMigrating(workspaceId));
    }

    /**
     * The partitions of a workspace's item collection: its own (which holds the workspace item, and during a
     * move the unmoved projects) first, then its shards.
     */
    public ListPartitions collectionPartitions(WorkspaceId workspaceId) {
        List<String> out = new ArrayList<>();
        out.add(KeyCodec.workspacePartition(workspaceId));
        for (int shard = 1; shard <= shardCount(workspaceId); shard++) {
            out.add(KeyCodec.shardPartition(workspaceId, shard));
        }
        return new ListPartitions(out, isMigrating(workspaceId));
    }

    /** The entries of a comma-separated list: none for an empty one, and never an empty entry. */
    private static List<String> split(String list, String parameter) {
        if (list == null || list.isEmpty()) {
            return List.of();
        }
        List<String> out = List.of(list.split(",", -1));
        if (out.contains("")) {
            throw new IllegalArgumentException(parameter + " has an empty entry");
        }
        return out;
    }
}
