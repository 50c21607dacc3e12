package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Moves a workspace's projects from its own partition into its shards, once it is listed in
 * HotTenantShards and HotTenantMigrating. Each project moves in two conditional steps with no moment of
 * invisibility: copy into the shard (unless the shard already has that version or newer), then delete the
 * source at the version copied. While both copies exist, reads take the source (see ControlPlaneStore).
 * A project changed meanwhile fails the delete and is copied again on the next pass. A project deleted meanwhile
 * leaves a tombstone at its shard key, which refuses the copy (even one sent after the job read the project,
 * before the delete), so a deleted project never comes back; the job removes the tombstones when the source is
 * empty. Resumable and idempotent: every run starts from what is left in the source.
 *
 * <pre>{@code Progress p = migration.run(WorkspaceId.of("acme"), tally, line -> log(Json.write(line)));}</pre>
 */
public final class ShardMigration {
    static final int BATCH = 25;
    /**
     * Start no query and no project move with less than this left of the invocation: a move is two calls, each
     * bounded by the client's timeouts, so the run ends cleanly (done: false) instead of dying mid-batch.
     */
    static final Duration STOP_MARGIN = Duration.ofSeconds(5);

    private final StoreCalls calls;
    private final MigrationRequests requests;
    private final ShardPlan plan;

    public ShardMigration(DynamoDbClient client, String tableName, ShardPlan plan) {
        this.calls = new StoreCalls(client, null);
        this.requests = new MigrationRequests(tableName);
        this.plan = plan;
    }

    /** What one run did: projects moved, and whether the source is now empty. */
    public record Progress(int moved, int passes, boolean done) {}

    /**
     * Moves projects until the source is empty or the time is up.
     *
     * @param log receives one structured line per batch (and one when done), for the caller to write out
     */
    public Progress run(WorkspaceId workspaceId, CallTally tally, Consumer<Map<String, Object>> log) {
        if (!plan.isSharded(workspaceId)) {
            throw new IllegalArgumentException(workspaceId + " is not in HotTenantShards");
        }
        int moved = 0;
        int passes = 0;
        while (hasTime(tally)) {
            List<Map<String, AttributeValue>> batch = calls.query(
                            requests.unmovedProjects(workspaceId, BATCH),
                            KeyCodec.workspacePartition(workspaceId),
                            tally)
                    .items();
            if (batch.isEmpty()) {
                Optional<Integer> removed = removeTombstones(workspaceId, tally);
                if (removed.isEmpty()) {
                    break; // out of time: the next run finds the source empty and finishes the clean-up
                }
                Map<String, Object> line = line(workspaceId, moved);
                line.put("remaining", 0);
                line.put("tombstonesRemoved", removed.get());
                line.put("done", true);
                log.accept(line);
                return new Progress(moved, passes, true);
            }
            passes++;
            for (Map<String, AttributeValue> item : batch) {
                if (!hasTime(tally)) {
                    break;
                }
                if (move(workspaceId, item, tally)) {
                    moved++;
                }
            }
            Map<String, Object> line = line(workspaceId, moved);
            line.put("batch", batch.size());
            line.put("done", false);
            log.accept(line);
        }
        return new Progress(moved, passes, false);
    }

    /**
     * The end of a move: the tombstones that deletes left in the shards while it ran are no longer needed (no
     * copy can come any more), so they go. One consistent Query per page of each shard, one conditional
     * DeleteItem per tombstone; empty when the time ran out first.
     */
    private Optional<Integer> removeTombstones(WorkspaceId workspaceId, CallTally tally) {
        int removed = 0;
        String source = KeyCodec.workspacePartition(workspaceId);
        for (String shard : plan.projectPartitions(workspaceId).partitions()) {
            if (shard.equals(source)) {
                continue;
            }
            Optional<PrimaryKey> after = Optional.empty();
            do {
                if (!hasTime(tally)) {
                    return Optional.empty();
                }
                QueryResponse page = calls.query(requests.shardProjects(shard, BATCH, after), shard, tally);
                for (Map<String, AttributeValue> item : page.items()) {
                    if (Items.isTombstone(item)
                            && calls.delete(requests.removeTombstone(Items.keyOf(item)), tally)
                                    .written()) {
                        removed++;
                    }
                }
                after = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? Optional.of(Items.keyOf(page.lastEvaluatedKey()))
                        : Optional.empty();
            } while (after.isPresent());
        }
        return Optional.of(removed);
    }

    private static boolean hasTime(CallTally tally) {
        return tally.remaining().compareTo(STOP_MARGIN) > 0;
    }

    private static Map<String, Object> line(WorkspaceId workspaceId, int moved) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("job", "MigrateHotTenant");
        line.put("workspaceId", workspaceId.value());
        line.put("moved", moved);
        return line;
    }

    /** One project: copy, then delete the source at the copied version. True when the source is gone. */
    private boolean move(WorkspaceId workspaceId, Map<String, AttributeValue> source, CallTally tally) {
        ProjectId id = Items.projectId(source);
        PrimaryKey target = plan.locate(workspaceId, id).home();
        long version = Long.parseLong(source.get(Items.VERSION).n());
        // Refused: a previous run copied it (or a newer version), and the delete below finishes that move.
        calls.put(requests.copyProject(source, target), tally);
        // Refused: changed since the copy (the next pass copies the new version), or gone (a DELETE took both).
        return calls.delete(requests.deleteSource(workspaceId, id, version), tally)
                .written();
    }
}
