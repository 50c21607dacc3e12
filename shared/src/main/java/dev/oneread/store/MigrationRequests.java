package dev.oneread.store;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * Pure request building for moving a hot workspace's projects into its shards: read what is left, copy one
 * project, delete its source at the version copied.
 *
 * <pre>{@code QueryRequest batch = new MigrationRequests("oneread").unmovedProjects(WorkspaceId.of("acme"), 25);}</pre>
 */
public final class MigrationRequests {
    private final TableRequests table;

    public MigrationRequests(String tableName) {
        this.table = new TableRequests(tableName);
    }

    /** The unmoved projects of a workspace, strongly consistent: a migration must not miss a fresh write. */
    public QueryRequest unmovedProjects(WorkspaceId workspaceId, int batch) {
        return table.query(
                ControlPlaneRequests.projectsIn(KeyCodec.workspacePartition(workspaceId)),
                batch,
                false,
                Optional.empty(),
                true);
    }

    /**
     * Copies a project into its shard unless the shard already holds that version or a newer one: the
     * idempotent first step of a move.
     */
    public PutItemRequest copyProject(Map<String, AttributeValue> source, PrimaryKey target) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(source);
        item.putAll(Items.key(target));
        Expression notNewer = Condition.attributeNotExists(KeyCodec.PARTITION_KEY)
                .or(Condition.lessThan(Items.VERSION, source.get(Items.VERSION)))
                .build();
        return table.put(item, notNewer);
    }

    /**
     * The second step: deletes the unsharded source at the version copied, so that a project changed meanwhile
     * stays (and is copied again on the next pass).
     */
    public DeleteItemRequest deleteSource(WorkspaceId workspaceId, ProjectId projectId, long copiedVersion) {
        return table.delete(
                KeyCodec.projectKey(workspaceId, projectId),
                Optional.of(ControlPlaneRequests.versionGuard(ExpectedVersion.exactly(copiedVersion))
                        .build()));
    }

    /**
     * One page of a shard's projects, in key order after {@code after}, strongly consistent: how the end of a move
     * finds the tombstones left by deletes during it.
     */
    public QueryRequest shardProjects(String shardPartition, int batch, Optional<PrimaryKey> after) {
        return table.query(ControlPlaneRequests.projectsIn(shardPartition), batch, true, after, true);
    }

    /** Removes a tombstone once the move is over; only a tombstone (never a project written there since). */
    public DeleteItemRequest removeTombstone(PrimaryKey key) {
        return table.delete(
                key,
                Optional.of(Condition.attributeExists(Items.DELETED_DURING_MOVE).build()));
    }
}
