package dev.oneread.store;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ProjectStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The requests of the stats rollup (pure building): the pages of one partition's projects, and the write of the
 * counts onto the workspace item.
 *
 * <pre>{@code UpdateItemRequest write = new StatsRequests("oneread").writeStats(acme, counts, runId, now);}</pre>
 */
public final class StatsRequests {
    /** The workspace item's attribute the counts go to, and the run that wrote them. */
    static final String STATS = "stats";

    static final String STATS_RUN = "statsRun";
    private static final int PAGE = 500;

    private final TableRequests table;

    public StatsRequests(String tableName) {
        this.table = new TableRequests(tableName);
    }

    /** One page of a partition's projects, in key order, after {@code after}: eventually consistent. */
    public QueryRequest projectsPage(String partition, Optional<PrimaryKey> after) {
        return table.query(ControlPlaneRequests.projectsIn(partition), PAGE - 1, true, after, false);
    }

    /**
     * Writes the counts onto the workspace, if it exists and has not seen this run, or a later one: a redelivered
     * task, or one a rerun planner sent twice, is refused, so a task applies at most once per run. The version is
     * not bumped: a user's If-Match must not fail because a job ran.
     */
    public UpdateItemRequest writeStats(
            WorkspaceId workspaceId, Map<ProjectStatus, Integer> counts, String runId, Instant asOf) {
        Map<String, AttributeValue> stats = new LinkedHashMap<>();
        int total = 0;
        for (ProjectStatus status : ProjectStatus.values()) {
            int n = counts.getOrDefault(status, 0);
            stats.put(status.name(), AttributeValue.fromN(Integer.toString(n)));
            total += n;
        }
        stats.put("total", AttributeValue.fromN(Integer.toString(total)));
        stats.put("asOf", AttributeValue.fromS(asOf.toString()));
        AttributeValue run = AttributeValue.fromS(runId);
        Update update = Update.set(STATS, AttributeValue.fromM(stats))
                .andSet(STATS_RUN, run)
                .when(Condition.attributeExists(Items.VERSION)
                        .and(Condition.attributeNotExists(STATS_RUN).or(Condition.lessThan(STATS_RUN, run))));
        return table.update(KeyCodec.workspaceKey(workspaceId), update.build(), null);
    }
}
