package dev.oneread.operations;

import dev.oneread.expr.Condition;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.Path;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartition;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The stats and purge jobs ({@code RunJob}): a task of the job queue counts one workspace's projects and feeds the
 * hot-tenant report, or purges a deleted workspace. Its requests (pure building), which the features (StatsRollup,
 * WorkspacePurge) call and pace: the workspace as it stands; the stats' pages of a partition's projects, the write of
 * the counts onto the workspace item, and the report entry written or taken back (entries carry the run that wrote
 * them, so a redelivered task of an older run never overwrites or removes a newer run's); the purge's pages of a
 * partition to sweep, its batch deletes, and the delete of the workspace item itself, last.
 *
 * <pre>{@code UpdateItemRequest write = RunJobOperation.writeStats(OperationContext.of("oneread"), acme, new StatsCount(counts, false, runId, now));}</pre>
 */
public final class RunJobOperation extends JobOperation {
    public static final RunJobOperation INSTANCE = new RunJobOperation();

    /** The run that last wrote a workspace's counts, kept on the workspace item. */
    public static final String STATS_RUN = "statsRun";
    /** Whether the counts made their partition hot, kept with them: a later run takes the report entry back. */
    public static final String HOT = "hot";
    /** DynamoDB takes at most 25 requests per BatchWriteItem. */
    public static final int PURGE_BATCH = 25;
    /** Items per sweep page: 10 full batches. */
    static final int PURGE_PAGE = 250;

    private static final int STATS_PAGE = 500;
    /** The run that wrote a shard's part, kept inside the part. */
    private static final String PART_RUN = "run";

    private RunJobOperation() {
        super(JobDescriptor.builder("stats, purge")
                .function("RunJob")
                .events("SQS")
                .startedBy("`JobQueue`")
                .does("counts a workspace's projects and feeds the hot-tenant report; purges a deleted workspace")
                .build());
    }

    /** What one stats task counted, in which run, and whether it makes its partition hot. */
    public record StatsCount(Map<ProjectStatus, Integer> counts, boolean hot, String runId, Instant asOf) {}

    /**
     * The workspace item, strongly consistent: whether a stats task whose write was refused may still keep the
     * report, and the purge acts only on the run that marked it.
     */
    public static GetItemRequest readWorkspace(OperationContext context, WorkspaceId workspaceId) {
        return context.table().workspaceAsItStands(workspaceId);
    }

    // The stats task: count, write the counts, keep the report.

    /** One page of a partition's projects, in key order, after {@code after}: eventually consistent. */
    public static QueryRequest projectsPage(OperationContext context, String partition, Optional<PrimaryKey> after) {
        return context.table().query(ListProjectsOperation.projectsIn(partition), STATS_PAGE - 1, true, after, false);
    }

    /**
     * Writes the counts onto the workspace, if it exists, is not being purged (a stats task never writes into a
     * purge, so it never puts a report entry after the purge took them away), and has not seen this run, or a later
     * one: a redelivered task, or one a rerun planner sent twice, is refused, so a task applies at most once per run.
     * The version is not bumped: a user's If-Match must not fail because a job ran. It returns the counts it replaced
     * (UPDATED_OLD), whose {@code hot} tells whether the last run reported the partition.
     */
    public static UpdateItemRequest writeStats(OperationContext context, WorkspaceId workspaceId, StatsCount count) {
        AttributeValue run = AttributeValue.fromS(count.runId());
        Update update = Update.set(Items.STATS, AttributeValue.fromM(counts(count)))
                .andSet(STATS_RUN, run)
                .when(Condition.attributeExists(Items.VERSION)
                        .and(WriteConditions.notPurging())
                        .and(Condition.attributeNotExists(STATS_RUN).or(Condition.lessThan(STATS_RUN, run))));
        return context.table().update(KeyCodec.workspaceKey(workspaceId), update.build(), ReturnValue.UPDATED_OLD);
    }

    /**
     * The name of one shard's part in a sharded tenant's {@code stats} map: {@code s07}. Each shard's task writes
     * its own part, so the tasks of one tenant never overwrite each other; a read sums the parts.
     */
    public static String shardPart(int shard) {
        return String.format("s%02d", shard);
    }

    /**
     * Writes one shard's counts into the workspace's {@code stats} map, if the map exists and this part has not
     * seen this run, or a later one (the run is kept in the part). DynamoDB refuses a SET through a map that does
     * not exist, hence the {@code attribute_exists} guard: the first part of a tenant goes through {@link
     * #createShardStats}. It returns the part it replaced (UPDATED_OLD).
     */
    public static UpdateItemRequest writeShardStats(
            OperationContext context, WorkspaceId workspaceId, int shard, StatsCount count) {
        AttributeValue run = AttributeValue.fromS(count.runId());
        Path part = Path.of(Items.STATS, shardPart(shard));
        Update update = Update.set(part, shardPartValue(count))
                .when(Condition.attributeExists(Items.VERSION)
                        .and(WriteConditions.notPurging())
                        .and(Condition.attributeExists(Items.STATS))
                        .and(Condition.attributeNotExists(part).or(Condition.lessThan(part.then(PART_RUN), run))));
        return context.table().update(KeyCodec.workspaceKey(workspaceId), update.build(), ReturnValue.UPDATED_OLD);
    }

    /** Creates the {@code stats} map with its first shard's part, if the workspace exists and has no map yet. */
    public static UpdateItemRequest createShardStats(
            OperationContext context, WorkspaceId workspaceId, int shard, StatsCount count) {
        AttributeValue stats = AttributeValue.fromM(Map.of(shardPart(shard), shardPartValue(count)));
        Update update = Update.set(Items.STATS, stats)
                .when(Condition.attributeExists(Items.VERSION)
                        .and(WriteConditions.notPurging())
                        .and(Condition.attributeNotExists(Items.STATS)));
        return context.table().update(KeyCodec.workspaceKey(workspaceId), update.build(), null);
    }

    private static AttributeValue shardPartValue(StatsCount count) {
        Map<String, AttributeValue> part = counts(count);
        part.put(PART_RUN, AttributeValue.fromS(count.runId()));
        return AttributeValue.fromM(part);
    }

    private static Map<String, AttributeValue> counts(StatsCount count) {
        Map<String, AttributeValue> stats = new LinkedHashMap<>();
        int total = 0;
        for (ProjectStatus status : ProjectStatus.values()) {
            int n = count.counts().getOrDefault(status, 0);
            stats.put(status.name(), AttributeValue.fromN(Integer.toString(n)));
            total += n;
        }
        stats.put("total", AttributeValue.fromN(Integer.toString(total)));
        stats.put("asOf", AttributeValue.fromS(count.asOf().toString()));
        stats.put(HOT, AttributeValue.fromBool(count.hot()));
        return stats;
    }

    /**
     * The report entry of a hot partition, unless a later run wrote it already (its pages and its decoding are
     * {@link GetHotTenantReportOperation}'s).
     */
    public static PutItemRequest putReportEntry(OperationContext context, HotPartition entry) {
        return context.table()
                .put(
                        GetHotTenantReportOperation.item(entry),
                        notNewerThan(entry.runId()).build());
    }

    /** Takes back a partition's report entry, written by an earlier run: the partition is no longer hot. */
    public static DeleteItemRequest deleteReportEntry(
            OperationContext context, WorkspaceId workspaceId, int shard, String runId) {
        return context.table()
                .delete(
                        GetHotTenantReportOperation.entryKey(workspaceId, shard),
                        Optional.of(Condition.lessThan(GetHotTenantReportOperation.RUN, AttributeValue.fromS(runId))
                                .build()));
    }

    private static Condition notNewerThan(String runId) {
        String run = GetHotTenantReportOperation.RUN;
        return Condition.attributeNotExists(run).or(Condition.lessThan(run, AttributeValue.fromS(runId)));
    }

    // The purge task: sweep each partition, then delete the workspace item.

    /**
     * The first items left in a partition, strongly consistent: the sweep deletes what it reads and reads from
     * the start again, until a page comes back with nothing left to delete.
     */
    public static QueryRequest sweepPage(OperationContext context, String partition) {
        return context.table()
                .query(
                        KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition)
                                .build(),
                        PURGE_PAGE - 1,
                        true,
                        Optional.empty(),
                        true);
    }

    /** Deletes up to {@link #PURGE_BATCH} items, whatever they hold: after the fence nothing else writes there. */
    public static BatchWriteItemRequest deleteAll(OperationContext context, List<PrimaryKey> keys) {
        if (keys.isEmpty() || keys.size() > PURGE_BATCH) {
            throw new IllegalArgumentException("a BatchWriteItem takes 1 to " + PURGE_BATCH + " requests");
        }
        List<WriteRequest> deletes = new ArrayList<>();
        keys.forEach(key -> deletes.add(WriteRequest.builder()
                .deleteRequest(DeleteRequest.builder().key(Items.key(key)).build())
                .build()));
        return batch(Map.of(context.tableName(), deletes));
    }

    /** The same batch call, for the requests DynamoDB left unprocessed. */
    public static BatchWriteItemRequest retryBatch(Map<String, List<WriteRequest>> unprocessed) {
        return batch(unprocessed);
    }

    /** The workspace item, last, if it still carries this purge's run: a workspace created since is not touched. */
    public static DeleteItemRequest deleteWorkspace(
            OperationContext context, WorkspaceId workspaceId, String purgeRun) {
        return context.table()
                .delete(
                        KeyCodec.workspaceKey(workspaceId),
                        Optional.of(Condition.equalTo(Items.PURGE_RUN, AttributeValue.fromS(purgeRun))
                                .build()));
    }

    private static BatchWriteItemRequest batch(Map<String, List<WriteRequest>> requests) {
        return BatchWriteItemRequest.builder()
                .requestItems(requests)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }
}
