package dev.oneread.operations;

import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.InvalidIdException;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartition;
import dev.oneread.model.ListPosition;
import dev.oneread.model.Page;
import dev.oneread.store.exceptions.UndecodableItemException;
import dev.oneread.store.items.Items;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * {@code GET /reports/hot-tenants}, for operators: the hot-tenant report the stats job keeps, 1 Query per page of
 * its own partition. It holds the entries' format: the item the stats task writes ({@link RunJobOperation}'s
 * {@code putReportEntry}) and its strict decoding.
 *
 * <pre>{@code QueryRequest q = GetHotTenantReportOperation.generateRequest(OperationContext.of("oneread"), 50, Optional.empty());}</pre>
 */
public final class GetHotTenantReportOperation extends Operation {
    public static final GetHotTenantReportOperation INSTANCE = new GetHotTenantReportOperation();

    private static final String WORKSPACE_ID = "workspaceId";
    private static final String SHARD = "shard";
    private static final String PROJECTS = "projects";
    private static final String BYTES = "bytes";
    private static final String CURRENT_SHARDS = "currentShards";
    private static final String RECOMMENDED_SHARDS = "recommendedShards";
    /** The run that wrote an entry: an older run's task never overwrites or removes a newer run's entry. */
    static final String RUN = "run";

    private static final String AS_OF = "asOf";

    /** The attributes of an entry besides its key: what {@link #item} writes, nothing else. */
    public static final Set<String> ENTRY_ATTRIBUTES =
            Set.of(WORKSPACE_ID, SHARD, PROJECTS, BYTES, CURRENT_SHARDS, RECOMMENDED_SHARDS, RUN, AS_OF);

    private GetHotTenantReportOperation() {
        super(Descriptor.builder("hot-tenant-report")
                .route("GET", "/reports/hot-tenants")
                .function("GetHotTenantReport")
                .scope(Scope.OPERATOR)
                .keyCondition("EntityRef = " + KeyCodec.hotTenantReportPartition() + ", in partition order")
                .calls("1 Query")
                .budget(CostBudget.of(
                        "1 Query per page, of the report's own partition",
                        1,
                        CostBudget.Fan.NONE,
                        0,
                        CostBudget.PAGE_READ))
                .build());
    }

    /** One page of the report, in partition order (a workspace's shards together), after {@code afterPartition}. */
    public static QueryRequest generateRequest(OperationContext context, int limit, Optional<String> afterPartition) {
        String report = KeyCodec.hotTenantReportPartition();
        return context.table()
                .query(
                        KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, report)
                                .build(),
                        limit,
                        true,
                        afterPartition.map(partition -> new PrimaryKey(report, partition)),
                        false);
    }

    /** The page the Query read: its entries, decoded strictly, and the position after it if more remain. */
    public static Page<HotPartition> transformResponse(QueryResponse response, int limit) {
        List<HotPartition> entries = new ArrayList<>();
        String last = null;
        for (Map<String, AttributeValue> item : response.items()) {
            if (entries.size() == limit) {
                return new Page<>(entries, Optional.of(ListPosition.after(last)));
            }
            entries.add(transformEntry(item));
            last = item.get(KeyCodec.SORT_KEY).s();
        }
        return new Page<>(entries, Optional.empty());
    }

    /** The item of a hot partition's entry, keyed by the partition it reports on. */
    static Map<String, AttributeValue> item(HotPartition entry) {
        Map<String, AttributeValue> item = Items.key(entryKey(entry.workspaceId(), entry.shard()));
        item.put(WORKSPACE_ID, AttributeValue.fromS(entry.workspaceId().value()));
        item.put(SHARD, number(entry.shard()));
        item.put(PROJECTS, number(entry.projects()));
        item.put(BYTES, number(entry.bytes()));
        item.put(CURRENT_SHARDS, number(entry.currentShards()));
        item.put(RECOMMENDED_SHARDS, number(entry.recommendedShards()));
        item.put(RUN, AttributeValue.fromS(entry.runId()));
        item.put(AS_OF, AttributeValue.fromS(entry.asOf().toString()));
        return item;
    }

    /** The key of the entry about a partition: the workspace's own (shard 0), or one of its shards. */
    static PrimaryKey entryKey(WorkspaceId workspaceId, int shard) {
        return KeyCodec.hotTenantReportKey(partitionOf(workspaceId, shard));
    }

    private static String partitionOf(WorkspaceId workspaceId, int shard) {
        return shard == 0 ? KeyCodec.workspacePartition(workspaceId) : KeyCodec.shardPartition(workspaceId, shard);
    }

    /** An entry, decoded strictly: its key must be the partition it reports on, its run a ULID. */
    public static HotPartition transformEntry(Map<String, AttributeValue> item) {
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
        if (!key.equals(entryKey(workspaceId, (int) shard))) {
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

    private static AttributeValue number(long n) {
        return AttributeValue.fromN(Long.toString(n));
    }

    @Override
    public QueryRequest sampleRequest(Sample sample) {
        return generateRequest(sample.context(), sample.limit(), Optional.empty());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.partition(KeyCodec.hotTenantReportPartition());
    }
}
