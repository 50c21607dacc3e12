package dev.oneread.store;

import dev.oneread.expr.Condition;
import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartition;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * The requests of the hot-tenant report (pure building): an entry written, or taken back, by the stats task of the
 * partition it is about, and the report's pages. An entry carries the run that wrote it, so a redelivered task of
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

    /** One page of the report, in partition order (a workspace's shards together), after {@code after}. */
    public QueryRequest page(int limit, Optional<String> afterPartition) {
        String report = KeyCodec.hotTenantReportPartition();
        return table.query(
                KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, report).build(),
                limit,
                true,
                afterPartition.map(partition -> new PrimaryKey(report, partition)),
                false);
    }

    /** The partition an entry reports on: the workspace's own (shard 0), or one of its shards. */
    static String partitionOf(WorkspaceId workspaceId, int shard) {
        return shard == 0 ? KeyCodec.workspacePartition(workspaceId) : KeyCodec.shardPartition(workspaceId, shard);
    }

    static HotPartition entry(Map<String, AttributeValue> item) {
        return new HotPartition(
                WorkspaceId.of(item.get(WORKSPACE_ID).s()),
                Integer.parseInt(item.get(SHARD).n()),
                Long.parseLong(item.get(PROJECTS).n()),
                Long.parseLong(item.get(BYTES).n()),
                Integer.parseInt(item.get(CURRENT_SHARDS).n()),
                Integer.parseInt(item.get(RECOMMENDED_SHARDS).n()),
                item.get(RUN).s(),
                Instant.parse(item.get(AS_OF).s()));
    }

    private static Condition notNewerThan(String runId) {
        return Condition.attributeNotExists(RUN).or(Condition.lessThan(RUN, AttributeValue.fromS(runId)));
    }

    private static AttributeValue number(long n) {
        return AttributeValue.fromN(Long.toString(n));
    }
}
