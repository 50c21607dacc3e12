package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ProjectStatus;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The stats job for one workspace: counts its projects by status over every partition they may be in (its shards,
 * for a hot tenant), page by page, and writes the counts onto the workspace item, once per run. Counts are
 * absolute, so running a task again gives the same numbers, never doubled ones.
 *
 * <pre>{@code Outcome o = rollup.run(WorkspaceId.of("acme"), 0, runId, Instant.now(), tally);}</pre>
 */
public final class StatsRollup {
    private final StoreCalls calls;
    private final StatsRequests requests;
    private final ShardPlan plan;

    public StatsRollup(DynamoDbClient client, String tableName, ShardPlan plan) {
        this.calls = new StoreCalls(client, null);
        this.requests = new StatsRequests(tableName);
        this.plan = plan;
    }

    /** The counts, and whether this task wrote them (false: the workspace already had this run, or is gone). */
    public record Outcome(Map<ProjectStatus, Integer> counts, boolean applied) {}

    /** Counts the whole workspace (shard 0), or one shard of a sharded tenant, and writes the counts once. */
    public Outcome run(WorkspaceId workspaceId, int shard, String runId, Instant now, CallTally tally) {
        Map<ProjectStatus, Integer> counts = new EnumMap<>(ProjectStatus.class);
        List<String> partitions = shard == 0
                ? plan.projectPartitions(workspaceId).partitions()
                : List.of(KeyCodec.shardPartition(workspaceId, shard));
        for (String partition : partitions) {
            Optional<PrimaryKey> after = Optional.empty();
            do {
                QueryResponse page = calls.query(requests.projectsPage(partition, after), partition, tally);
                for (Map<String, AttributeValue> item : page.items()) {
                    if (!Items.isTombstone(item) && item.get(Items.STATUS) != null) {
                        counts.merge(
                                ProjectStatus.valueOf(item.get(Items.STATUS).s()), 1, Integer::sum);
                    }
                }
                after = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? Optional.of(Items.keyOf(page.lastEvaluatedKey()))
                        : Optional.empty();
            } while (after.isPresent());
        }
        boolean applied = shard == 0
                ? calls.update(requests.writeStats(workspaceId, counts, runId, now), tally)
                        .written()
                : writeShardPart(workspaceId, shard, counts, runId, now, tally);
        return new Outcome(counts, applied);
    }

    /**
     * One call once the tenant has a stats map. Before its first part: the part's write is refused, and the map is
     * created with it. A refusal of both means the part already has this run (or the workspace is gone), unless a
     * sibling shard created the map in between, which the last try covers. DynamoDB's ALL_OLD on the first
     * refusal settles a duplicate in one call; engines without it need the other two.
     */
    private boolean writeShardPart(
            WorkspaceId workspaceId,
            int shard,
            Map<ProjectStatus, Integer> counts,
            String runId,
            Instant now,
            CallTally tally) {
        UpdateItemRequest part = requests.writeShardStats(workspaceId, shard, counts, runId, now);
        WriteOutcome first = calls.update(part, tally);
        boolean mapExisted = first.then(
                written -> true,
                refused -> refused.current()
                        .map(item -> item.containsKey(StatsRequests.STATS))
                        .orElse(false));
        if (first.written() || mapExisted) {
            return first.written();
        }
        return calls.update(requests.createShardStats(workspaceId, shard, counts, runId, now), tally)
                        .written()
                || calls.update(part, tally).written();
    }
}
