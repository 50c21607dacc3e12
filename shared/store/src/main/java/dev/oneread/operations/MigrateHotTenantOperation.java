package dev.oneread.operations;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The migration job ({@code MigrateHotTenant}, an operator's): moves a hot tenant's projects into its shards, live.
 * Its requests (pure building): the lease on the workspace, read what is left, copy one project, delete its source at
 * the version copied, and clear the tombstones; the feature (ShardMigration) makes the calls and paces them.
 *
 * <pre>{@code QueryRequest batch = MigrateHotTenantOperation.unmovedProjects(OperationContext.of("oneread"), WorkspaceId.of("acme"), 25, Optional.empty());}</pre>
 */
public final class MigrateHotTenantOperation extends JobOperation {
    public static final MigrateHotTenantOperation INSTANCE = new MigrateHotTenantOperation();

    private MigrateHotTenantOperation() {
        super(JobDescriptor.builder("migration")
                .function("MigrateHotTenant")
                .startedBy("an operator")
                .does("moves a tenant's projects into its shards, live")
                .build());
    }

    public static UpdateItemRequest holdLease(
            OperationContext context, WorkspaceId workspaceId, String run, Instant until, Instant now) {
        AttributeValue holder = AttributeValue.fromS(run);
        Condition free = Condition.attributeNotExists(Items.MIGRATION_RUN)
                .or(Condition.equalTo(Items.MIGRATION_RUN, holder))
                .or(Condition.lessThan(Items.MIGRATION_UNTIL, epochMillis(now)));
        return context.table()
                .update(
                        KeyCodec.workspaceKey(workspaceId),
                        Update.set(Items.MIGRATION_RUN, holder)
                                .andSet(Items.MIGRATION_UNTIL, epochMillis(until))
                                .when(Condition.attributeExists(Items.VERSION)
                                        .and(WriteConditions.notPurging())
                                        .and(free))
                                .build(),
                        ReturnValue.NONE);
    }

    /**
     * Ends {@code run}'s lease at {@code now}, once its last write has landed (it made no call whose outcome is
     * unknown): the next run may start at once. The end stays on the item ({@code migrationUntil}, with no holder),
     * since a purge waits out its fence from it. Only the holder's lease; a purge's mark does not stop it.
     */
    public static UpdateItemRequest releaseLease(
            OperationContext context, WorkspaceId workspaceId, String run, Instant now) {
        return endLease(context, workspaceId, run, now, false);
    }

    /**
     * Shortens {@code run}'s lease to {@code landedBy}, for a run that ends on a call whose outcome is unknown (a
     * timeout): that write may still land until then, so the run keeps the lease until it can no more.
     */
    public static UpdateItemRequest shortenLease(
            OperationContext context, WorkspaceId workspaceId, String run, Instant landedBy) {
        return endLease(context, workspaceId, run, landedBy, true);
    }

    private static UpdateItemRequest endLease(
            OperationContext context, WorkspaceId workspaceId, String run, Instant until, boolean heldUntilThen) {
        Update update = Update.set(Items.MIGRATION_UNTIL, epochMillis(until));
        if (!heldUntilThen) {
            update.remove(Items.MIGRATION_RUN);
        }
        return context.table()
                .update(
                        KeyCodec.workspaceKey(workspaceId),
                        update.when(Condition.equalTo(Items.MIGRATION_RUN, AttributeValue.fromS(run)))
                                .build(),
                        ReturnValue.NONE);
    }

    /** The workspace item, strongly consistent: why a lease was refused, or whether a run holds one. */
    public static GetItemRequest readWorkspace(OperationContext context, WorkspaceId workspaceId) {
        return context.table().workspaceAsItStands(workspaceId);
    }

    private static AttributeValue epochMillis(Instant instant) {
        return AttributeValue.fromN(Long.toString(instant.toEpochMilli()));
    }

    /**
     * The unmoved projects of a workspace, newest first, after {@code after} (the last one the run's previous batch
     * read; empty for a pass from the top), strongly consistent: a migration must not miss a fresh write.
     */
    public static QueryRequest unmovedProjects(
            OperationContext context, WorkspaceId workspaceId, int batch, Optional<PrimaryKey> after) {
        return context.table()
                .query(
                        ListProjectsOperation.projectsIn(KeyCodec.workspacePartition(workspaceId)),
                        batch,
                        false,
                        after,
                        true);
    }

    /**
     * Copies a project into its shard unless the shard already holds that version or a newer one: the
     * idempotent first step of a move.
     */
    public static PutItemRequest copyProject(
            OperationContext context, Map<String, AttributeValue> source, PrimaryKey target) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(source);
        item.putAll(Items.key(target));
        Expression notNewer = Condition.attributeNotExists(KeyCodec.PARTITION_KEY)
                .or(Condition.lessThan(Items.VERSION, source.get(Items.VERSION)))
                .build();
        return context.table().put(item, notNewer);
    }

    /**
     * The second step: deletes the unsharded source at the version copied, so that a project changed meanwhile
     * stays (and is copied again on the next pass).
     */
    public static DeleteItemRequest deleteSource(
            OperationContext context, WorkspaceId workspaceId, ProjectId projectId, long copiedVersion) {
        return context.table()
                .delete(
                        KeyCodec.projectKey(workspaceId, projectId),
                        Optional.of(WriteConditions.versionGuard(ExpectedVersion.exactly(copiedVersion))
                                .build()));
    }

    /**
     * One page of a shard's projects, in key order after {@code after}, strongly consistent: how the end of a move
     * finds the tombstones left by deletes during it.
     */
    public static QueryRequest shardProjects(
            OperationContext context, String shardPartition, int batch, Optional<PrimaryKey> after) {
        return context.table().query(ListProjectsOperation.projectsIn(shardPartition), batch, true, after, true);
    }

    /** Removes a tombstone once the move is over; only a tombstone (never a project written there since). */
    public static DeleteItemRequest removeTombstone(OperationContext context, PrimaryKey key) {
        return context.table()
                .delete(
                        key,
                        Optional.of(Condition.attributeExists(Items.DELETED_DURING_MOVE)
                                .build()));
    }
}
