package dev.oneread.store.stats;

import dev.oneread.expr.Condition;
import dev.oneread.keys.InvalidIdException;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartition;
import dev.oneread.store.exceptions.UndecodableItemException;
import dev.oneread.store.internal.TableRequests;
import dev.oneread.store.items.Items;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * The requests of the hot-tenant report (pure building): an entry written, or taken back, by the stats task of the
 * partition it is about (its pages are GetHotTenantReportOperation's). An entry carries the run that wrote it, so a redelivered task of
 * an older run never overwrites or removes a newer run's entry.
 *
 * <pre>{@code PutItemRequest put = new ReportRequests("oneread").putEntry(entry);}</pre>
 */
public final class ReportRequests {
    static final String WORKSPACE_ID = "workspaceId";
    static final String SHARD = "shard";
    static final String PROJECTS = "projects";
    static final String BYTES = "bytes";
    static final String CURRENT_SHARDS = "currentShards";
    static final String RECOMMENDED_SHARDS = "recommendedShards";
    static final String RUN = "run";
    static final String AS_OF = "asOf";

    private final TableRequests table;

    public ReportRequests(String tableName) {
        this.table = new TableRequests(tableName);
    }

    /** The entry of a hot partition, unless a later run wrote it already. */
    public PutItemRequest putEntry(HotPartition entry) {
        String partition = partitionOf(entry.workspaceId(), entry.shard());
        Map<String, AttributeValue> item = Items.key(KeyCodec.hotTenantReportKey(partition));
        item.put(WORKSPACE_ID, AttributeValue.fromS(entry.workspaceId().value()));
        item.put(SHARD, number(entry.shard()));
        item.put(PROJECTS, number(entry.projects()));
        item.put(BYTES, number(entry.bytes()));
        item.put(CURRENT_SHARDS, number(entry.currentShards()));
        item.put(RECOMMENDED_SHARDS, number(entry.recommendedShards()));
        item.put(RUN, AttributeValue.fromS(entry.runId()));
        item.put(AS_OF, AttributeValue.fromS(entry.asOf().toString()));
        return table.put(item, notNewerThan(entry.runId()).build());
    }

    /** Takes back a partition's entry, written by an earlier run: the partition is no longer hot. */
    public DeleteItemRequest deleteEntry(WorkspaceId workspaceId, int shard, String runId) {
        return table.delete(
                KeyCodec.hotTenantReportKey(partitionOf(workspaceId, shard)),
                Optional.of(Condition.lessThan(RUN, AttributeValue.fromS(runId)).build()));
    }

    /** The partition an entry reports on: the workspace's own (shard 0), or one of its shards. */
    static String partitionOf(WorkspaceId workspaceId, int shard) {
        return shard == 0 ? KeyCodec.workspacePartition(workspaceId) : KeyCodec.shardPartition(workspaceId, shard);
    }

    /** The attributes of an entry besides its key: what {@link #putEntry} writes, nothing else. */
    public static final java.util.Set<String> ENTRY_ATTRIBUTES =
            java.util.Set.of(WORKSPACE_ID, SHARD, PROJECTS, BYTES, CURRENT_SHARDS, RECOMMENDED_SHARDS, RUN, AS_OF);

    /** An entry, decoded strictly: its key must be the partition it reports on, its run a ULID. */
    public static HotPartition entry(Map<String, AttributeValue> item) {
        PrimaryKey key = Items.keyOf(item);
        WorkspaceId workspaceId;
        try {
            workspaceId = WorkspaceId.of(Items.string(item, WORKSPACE_ID));
        } catch (InvalidIdException e) {
            throw new UndecodableItemException(key, WORKSPACE_ID + " is not a workspace id");
        }
        long shard = Items.number(item, SHARD);
        if (shard < 0 || shard > KeyCodec.MAX_SHARDS) {
            throw new UndecodableItemException(key, SHARD + " is not 0.." + KeyCodec.MAX_SHARDS);
        }
        if (!key.equals(KeyCodec.hotTenantReportKey(partitionOf(workspaceId, (int) shard)))) {
            throw new UndecodableItemException(key, "the entry's key is not the partition it reports on");
        }
        String run = Items.string(item, RUN);
        if (!Ulid.isCanonical(run)) {
            throw new UndecodableItemException(key, RUN + " is not a run id (a ULID)");
        }
        return new HotPartition(
                workspaceId,
                (int) shard,
                Items.number(item, PROJECTS),
                Items.number(item, BYTES),
                (int) Items.number(item, CURRENT_SHARDS),
                (int) Items.number(item, RECOMMENDED_SHARDS),
                run,
                Items.instant(item, AS_OF));
    }

    private static Condition notNewerThan(String runId) {
        return Condition.attributeNotExists(RUN).or(Condition.lessThan(RUN, AttributeValue.fromS(runId)));
    }

    private static AttributeValue number(long n) {
        return AttributeValue.fromN(Long.toString(n));
    }
}
