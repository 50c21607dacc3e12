package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.SortKey;
import dev.oneread.keys.WorkspaceId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Moves a workspace's projects from its own partition into its shards, once it is listed in
 * HotTenantShards and HotTenantMigrating. Each project moves in two conditional steps with no moment of
 * invisibility: copy into the shard (unless the shard already has that version or newer), then delete the
 * source at the version copied. While both copies exist, reads take the source (see ControlPlaneStore).
 * A project changed meanwhile fails the delete and is copied again on the next pass; one deleted meanwhile
 * loses its copy too. Resumable and idempotent: every run starts from what is left in the source.
 *
 * <pre>{@code Progress p = migration.run(WorkspaceId.of("acme"), tally, System.out::println);}</pre>
 */
public final class ShardMigration {
    static final int BATCH = 25;
    /** Stop starting batches when less than this is left of the invocation: never die mid-batch. */
    static final Duration STOP_MARGIN = Duration.ofSeconds(5);

    private final DynamoDbClient client;
    private final StoreRequests requests;
    private final ShardPlan plan;

    public ShardMigration(DynamoDbClient client, String tableName, ShardPlan plan) {
        this.client = client;
        this.requests = new StoreRequests(tableName, plan);
        this.plan = plan;
    }

    /** What one run did: projects moved, and whether the source is now empty. */
    public record Progress(int moved, int passes, boolean done) {
    }

    public Progress run(WorkspaceId workspaceId, CallTally tally, Consumer<String> log) {
        if (!plan.isSharded(workspaceId)) {
            throw new IllegalArgumentException(workspaceId + " is not in HotTenantShards");
        }
        int moved = 0;
        int passes = 0;
        while (tally.remaining().compareTo(STOP_MARGIN) > 0) {
            List<Map<String, AttributeValue>> batch = Calls.call(() -> client.query(ReadAudit.tagged(
                    requests.unmovedProjects(workspaceId, BATCH), tally))).items();
            if (batch.isEmpty()) {
                log.accept("{\"job\":\"MigrateHotTenant\",\"workspaceId\":\"" + workspaceId + "\",\"moved\":" + moved
                        + ",\"remaining\":0,\"done\":true}");
                return new Progress(moved, passes, true);
            }
            passes++;
            for (Map<String, AttributeValue> item : batch) {
                if (move(workspaceId, item, tally)) {
                    moved++;
                }
            }
            log.accept("{\"job\":\"MigrateHotTenant\",\"workspaceId\":\"" + workspaceId + "\",\"moved\":" + moved
                    + ",\"batch\":" + batch.size() + ",\"done\":false}");
        }
        return new Progress(moved, passes, false);
    }

    /** One project: copy, then delete the source at the copied version. True when the source is gone. */
    private boolean move(WorkspaceId workspaceId, Map<String, AttributeValue> source, CallTally tally) {
        ProjectId id = ((SortKey.ProjectEntry) KeyCodec.decodeSortKey(source.get(KeyCodec.SORT_KEY).s())).projectId();
        PrimaryKey target = plan.projectKey(workspaceId, id);
        long version = Long.parseLong(source.get(Items.VERSION).n());
        try {
            Calls.call(() -> client.putItem(ReadAudit.tagged(requests.copyProject(source, target), tally)));
        } catch (Calls.ConditionFailed shardHasItAlready) {
            // a previous run copied it (or a newer version): the delete below finishes that move
        }
        try {
            Calls.call(() -> client.deleteItem(ReadAudit.tagged(
                    requests.deleteProjectAt(KeyCodec.projectKey(workspaceId, id), version), tally)));
            return true;
        } catch (Calls.ConditionFailed changedOrGone) {
            // Changed since the copy: the next pass copies the new version. Gone: a DELETE took both copies.
            return false;
        }
    }
}
