package dev.oneread.store.stats;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Path;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.ListProjectsOperation;
import dev.oneread.operations.WriteConditions;
import dev.oneread.store.internal.TableRequests;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The requests of the stats rollup (pure building): the pages of one partition's projects, and the write of the
 * counts onto the workspace item.
 *
 * <pre>{@code UpdateItemRequest write = new StatsRequests("oneread").writeStats(acme, new Count(counts, false, runId, now));}</pre>
 */
public final class StatsRequests {
    public static final String STATS_RUN = "statsRun";
    private static final int PAGE = 500;

    private final TableRequests table;

    /** What one task counted, in which run, and whether it makes its partition hot. */
    public record Count(Map<ProjectStatus, Integer> counts, boolean hot, String runId, Instant asOf) {}

    public StatsRequests(String tableName) {
        this.table = new TableRequests(tableName);
    }

    /** The workspace item, strongly consistent: whether a task whose write was refused may still keep the report. */
    public GetItemRequest readWorkspace(WorkspaceId workspaceId) {
        return table.workspaceAsItStands(workspaceId);
    }

    /** One page of a partition's projects, in key order, after {@code after}: eventually consistent. */
    public QueryRequest projectsPage(String partition, Optional<PrimaryKey> after) {
        return table.query(ListProjectsOperation.projectsIn(partition), PAGE - 1, true, after, false);
    }

    /**
     * Writes the counts onto the workspace, if it exists, is not being purged (a stats task never writes into a
     * purge, so it never puts a report entry after the purge took them away), and has not seen this run, or a later one: a redelivered
     * task, or one a rerun planner sent twice, is refused, so a task applies at most once per run. The version is
     * not bumped: a user's If-Match must not fail because a job ran. It returns the counts it replaced
     * (UPDATED_OLD), whose {@code hot} tells whether the last run reported the partition.
     */
    public UpdateItemRequest writeStats(WorkspaceId workspaceId, Count count) {
        AttributeValue run = AttributeValue.fromS(count.runId());
        Update update = Update.set(Items.STATS, AttributeValue.fromM(counts(count)))
                .andSet(STATS_RUN, run)
                .when(Condition.attributeExists(Items.VERSION)
                        .and(WriteConditions.notPurging())
                        .and(Condition.attributeNotExists(STATS_RUN).or(Condition.lessThan(STATS_RUN, run))));
        return table.update(KeyCodec.workspaceKey(workspaceId), update.build(), ReturnValue.UPDATED_OLD);
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
    public UpdateItemRequest writeShardStats(WorkspaceId workspaceId, int shard, Count count) {
        AttributeValue run = AttributeValue.fromS(count.runId());
        Path part = Path.of(Items.STATS, shardPart(shard));
        Update update = Update.set(part, shardPartValue(count))
                .when(Condition.attributeExists(Items.VERSION)
                        .and(WriteConditions.notPurging())
                        .and(Condition.attributeExists(Items.STATS))
                        .and(Condition.attributeNotExists(part).or(Condition.lessThan(part.then(PART_RUN), run))));
        return table.update(KeyCodec.workspaceKey(workspaceId), update.build(), ReturnValue.UPDATED_OLD);
    }

    /** Creates the {@code stats} map with its first shard's part, if the workspace exists and has no map yet. */
    public UpdateItemRequest createShardStats(WorkspaceId workspaceId, int shard, Count count) {
        AttributeValue stats = AttributeValue.fromM(Map.of(shardPart(shard), shardPartValue(count)));
        Update update = Update.set(Items.STATS, stats)
                .when(Condition.attributeExists(Items.VERSION)
                        .and(WriteConditions.notPurging())
                        .and(Condition.attributeNotExists(Items.STATS)));
        return table.update(KeyCodec.workspaceKey(workspaceId), update.build(), null);
    }

    /** The run that wrote a shard's part, kept inside the part. */
    static final String PART_RUN = "run";

    /** Whether the counts made their partition hot, kept with them: a later run takes the report entry back. */
    static final String HOT = "hot";

    private static AttributeValue shardPartValue(Count count) {
        Map<String, AttributeValue> part = counts(count);
        part.put(PART_RUN, AttributeValue.fromS(count.runId()));
        return AttributeValue.fromM(part);
    }

    private static Map<String, AttributeValue> counts(Count count) {
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
}
