package dev.oneread.store;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ProjectStatus;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The stats job for one workspace: counts its projects by status over every partition they may be in (its shards,
 * for a hot tenant), page by page, and writes the counts onto the workspace item, once per run. Counts are
 * absolute, so running a task again gives the same numbers, never doubled ones.
 *
 * <pre>{@code Outcome o = rollup.run(WorkspaceId.of("acme"), runId, Instant.now(), tally);}</pre>
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

    public Outcome run(WorkspaceId workspaceId, String runId, Instant now, CallTally tally) {
        Map<ProjectStatus, Integer> counts = new EnumMap<>(ProjectStatus.class);
        for (String partition : plan.projectPartitions(workspaceId).partitions()) {
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
        boolean applied = calls.update(requests.writeStats(workspaceId, counts, runId, now), tally)
                .written();
        return new Outcome(counts, applied);
    }
}
