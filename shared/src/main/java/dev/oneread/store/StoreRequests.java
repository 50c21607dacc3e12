package dev.oneread.store;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.Update;
import dev.oneread.expr.UpdateExpression;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.StoredResponse;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspacePatch;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Pure request building, one method per access pattern: no I/O, so tests compare whole SDK requests and the
 * {@code expr} command prints exactly what the store sends.
 *
 * <p>List requests ask for one item more than the page holds. That look-ahead item tells whether another
 * page exists, so the last page says so itself (no trailing empty page, no extra call), at the price of
 * reading one more small item, which rarely changes the 4 KB-rounded capacity.
 *
 * <pre>{@code QueryRequest q = new StoreRequests("oneread").listProjects(WorkspaceId.of("acme"), 20, Optional.empty());}</pre>
 */
public final class StoreRequests {
    private final String tableName;
    private final ShardPlan plan;

    public StoreRequests(String tableName) {
        this(tableName, ShardPlan.none());
    }

    /** @param plan where each workspace's projects live (sharded hot tenants) */
    public StoreRequests(String tableName, ShardPlan plan) {
        if (tableName == null || tableName.isBlank()) {
            throw new IllegalArgumentException("table name is not specified");
        }
        this.tableName = tableName;
        this.plan = plan;
    }

    public ShardPlan plan() {
        return plan;
    }

    public String tableName() {
        return tableName;
    }

    /** Workspace settings: one eventually consistent GetItem of {@code WS#id / META}. */
    public GetItemRequest getWorkspace(WorkspaceId workspaceId) {
        return getItem(KeyCodec.workspaceKey(workspaceId));
    }

    /** One project: one eventually consistent GetItem of {@code WS#id / PROJ#ulid}. */
    public GetItemRequest getProject(WorkspaceId workspaceId, ProjectId projectId) {
        return getItem(plan.projectKey(workspaceId, projectId));
    }

    /** One project at a given key: the unsharded copy of a project of a workspace being migrated. */
    public GetItemRequest getItemAt(PrimaryKey key) {
        return getItem(key);
    }

    /** Creates a workspace, never overwriting one: the put is conditional on the key being free. */
    public PutItemRequest createWorkspace(Workspace workspace) {
        return create(Items.workspaceItem(workspace));
    }

    /** Creates a project, never overwriting one. */
    public PutItemRequest createProject(Project project) {
        return create(Items.projectItem(project, plan.projectKey(project.workspaceId(), project.id())));
    }

    /**
     * Projects newest first: {@code EntityRef = WS#id AND begins_with(Detail, "PROJ#")}, descending, resuming
     * after {@code startAfter} when given.
     */
    public QueryRequest listProjects(WorkspaceId workspaceId, int limit, Optional<ProjectId> startAfter) {
        return listProjectsIn(KeyCodec.workspacePartition(workspaceId), limit,
                startAfter.map(KeyCodec::projectSortKey));
    }

    /** The same query on one partition (a workspace's, or one shard of a hot workspace). */
    public QueryRequest listProjectsIn(String partition, int limit, Optional<String> startAfterSortKey) {
        Expression keyCondition = KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition)
                .sortBeginsWith(KeyCodec.SORT_KEY, KeyCodec.projectSortKeyPrefix())
                .build();
        return query(keyCondition, limit, false, startAfterSortKey.map(sort -> new PrimaryKey(partition, sort)));
    }

    /**
     * The item collection in key order, {@code META} to the last {@code PROJ#...} (bookkeeping items such as
     * idempotency records sort outside that range): the first page starts with the workspace and the projects
     * follow oldest first.
     */
    public QueryRequest workspaceCollection(WorkspaceId workspaceId, int limit, Optional<String> startAfterSortKey) {
        return workspaceCollectionIn(KeyCodec.workspacePartition(workspaceId), limit, startAfterSortKey);
    }

    /** The same query on one partition (the workspace's, or one shard of a hot workspace). */
    public QueryRequest workspaceCollectionIn(String partition, int limit, Optional<String> startAfterSortKey) {
        KeyCodec.SortKeyRange readable = KeyCodec.collectionSortKeyRange();
        Expression keyCondition = KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition)
                .sortBetween(KeyCodec.SORT_KEY, readable.low(), readable.high())
                .build();
        return query(keyCondition, limit, true,
                startAfterSortKey.map(sort -> new PrimaryKey(partition, sort)));
    }

    /**
     * Changes a workspace at version {@code expectedVersion} (its ETag), bumping the version. The condition
     * also requires the item to exist, so an update never creates one.
     */
    public UpdateItemRequest updateWorkspace(WorkspaceId workspaceId, WorkspacePatch patch, long expectedVersion,
                                             Instant now) {
        Update update = Update.set(Items.UPDATED_AT, AttributeValue.fromS(now.toString()));
        if (patch.name() != null) {
            update.andSet(Items.NAME, AttributeValue.fromS(patch.name()));
        }
        if (patch.settings() != null) {
            update.andSet(Items.SETTINGS, AttributeValues.fromJson(patch.settings()));
        }
        return versionedUpdateAt(KeyCodec.workspaceKey(workspaceId), update, expectedVersion);
    }

    /** Changes a project at version {@code expectedVersion}, bumping the version; never creates one. */
    public UpdateItemRequest updateProject(WorkspaceId workspaceId, ProjectId projectId, ProjectPatch patch,
                                           long expectedVersion, Instant now) {
        return updateProjectAt(plan.projectKey(workspaceId, projectId), patch, expectedVersion, now);
    }

    /** As {@link #updateProject}, at a given key (the unsharded copy during a migration). */
    public UpdateItemRequest updateProjectAt(PrimaryKey key, ProjectPatch patch, long expectedVersion, Instant now) {
        Update update = Update.set(Items.UPDATED_AT, AttributeValue.fromS(now.toString()));
        if (patch.name() != null) {
            update.andSet(Items.NAME, AttributeValue.fromS(patch.name()));
        }
        if (patch.description() != null) {
            update.andSet(Items.DESCRIPTION, AttributeValue.fromS(patch.description()));
        } else if (patch.removeDescription()) {
            update.remove(Items.DESCRIPTION);
        }
        if (patch.status() != null) {
            update.andSet(Items.STATUS, AttributeValue.fromS(patch.status().name()));
        }
        return versionedUpdateAt(key, update, expectedVersion);
    }

    /**
     * Deletes a project that exists, at version {@code expectedVersion} when it is positive (an If-Match),
     * at any version when it is {@link #ANY_VERSION}.
     */
    public DeleteItemRequest deleteProject(WorkspaceId workspaceId, ProjectId projectId, long expectedVersion) {
        return deleteProjectAt(plan.projectKey(workspaceId, projectId), expectedVersion);
    }

    /** As {@link #deleteProject}, at a given key (the unsharded copy during a migration). */
    public DeleteItemRequest deleteProjectAt(PrimaryKey key, long expectedVersion) {
        Expression guard = versionGuard(expectedVersion).build();
        return DeleteItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(key))
                .conditionExpression(guard.expression())
                .expressionAttributeNames(guard.names())
                .expressionAttributeValues(guard.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** No If-Match: a delete at whatever version the item has. */
    public static final long ANY_VERSION = 0;

    /**
     * A strongly consistent read of one item, to tell "gone" from "changed" after a conditional write failed
     * (the local engine drops ReturnValuesOnConditionCheckFailure, so the failure itself cannot say).
     */
    public GetItemRequest readAfterConflict(PrimaryKey key) {
        return getItem(key).toBuilder().consistentRead(true).build();
    }

    /**
     * Takes the idempotency record of a request: free, expired, or abandoned in progress (its holder ran out
     * of time). Expiry lives in the condition, not in TTL, because TTL deletes late (and never locally).
     */
    public PutItemRequest claimIdempotency(WorkspaceId workspaceId, String keyHash, String payloadHash, Instant now,
                                           Instant inProgressUntil, Instant expiresAt) {
        Map<String, AttributeValue> item = Items.key(KeyCodec.idempotencyKey(workspaceId, keyHash));
        item.put(Items.STATUS, AttributeValue.fromS(Items.IN_PROGRESS));
        item.put(Items.PAYLOAD_HASH, AttributeValue.fromS(payloadHash));
        item.put(Items.IN_PROGRESS_UNTIL, AttributeValue.fromN(Long.toString(inProgressUntil.toEpochMilli())));
        item.put(Items.EXPIRES_AT, AttributeValue.fromN(Long.toString(expiresAt.getEpochSecond())));
        Expression claimable = Condition.attributeNotExists(KeyCodec.PARTITION_KEY)
                .or(Condition.lessThan(Items.EXPIRES_AT, AttributeValue.fromN(Long.toString(now.getEpochSecond()))))
                .or(Condition.equalTo(Items.STATUS, AttributeValue.fromS(Items.IN_PROGRESS))
                        .and(Condition.lessThan(Items.IN_PROGRESS_UNTIL,
                                AttributeValue.fromN(Long.toString(now.toEpochMilli())))))
                .build();
        return PutItemRequest.builder()
                .tableName(tableName)
                .item(item)
                .conditionExpression(claimable.expression())
                .expressionAttributeNames(claimable.names())
                .expressionAttributeValues(claimable.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** Reads an idempotency record, strongly consistent: it decides between replay, 409 and 422. */
    public GetItemRequest getIdempotency(WorkspaceId workspaceId, String keyHash) {
        return readAfterConflict(KeyCodec.idempotencyKey(workspaceId, keyHash));
    }

    /** Marks the record completed with the response to replay. */
    public UpdateItemRequest completeIdempotency(WorkspaceId workspaceId, String keyHash, StoredResponse response) {
        UpdateExpression update = Update.set(Items.STATUS, AttributeValue.fromS(Items.COMPLETED))
                .andSet(Items.RESPONSE_STATUS, AttributeValue.fromN(Integer.toString(response.status())))
                .andSet(Items.RESPONSE_HEADERS, AttributeValues.fromJson(response.headers()))
                .andSet(Items.RESPONSE_BODY, AttributeValue.fromS(response.body()))
                .when(Condition.attributeExists(KeyCodec.PARTITION_KEY))
                .build();
        return UpdateItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(KeyCodec.idempotencyKey(workspaceId, keyHash)))
                .updateExpression(update.update())
                .conditionExpression(update.condition())
                .expressionAttributeNames(update.names())
                .expressionAttributeValues(update.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** Gives the record up after a failure, so that a retry runs the request again. */
    public DeleteItemRequest releaseIdempotency(WorkspaceId workspaceId, String keyHash) {
        return DeleteItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(KeyCodec.idempotencyKey(workspaceId, keyHash)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * Copies a project into its shard unless the shard already holds that version or a newer one: the
     * idempotent first step of a move (the second deletes the source at the version copied).
     */
    public PutItemRequest copyProject(Map<String, AttributeValue> source, PrimaryKey target) {
        Map<String, AttributeValue> item = new java.util.LinkedHashMap<>(source);
        item.putAll(Items.key(target));
        Expression notNewer = Condition.attributeNotExists(KeyCodec.PARTITION_KEY)
                .or(Condition.lessThan(Items.VERSION, source.get(Items.VERSION)))
                .build();
        return PutItemRequest.builder()
                .tableName(tableName)
                .item(item)
                .conditionExpression(notNewer.expression())
                .expressionAttributeNames(notNewer.names())
                .expressionAttributeValues(notNewer.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /** The unmoved projects of a workspace, strongly consistent: a migration must not miss a fresh write. */
    public QueryRequest unmovedProjects(WorkspaceId workspaceId, int batch) {
        return listProjectsIn(KeyCodec.workspacePartition(workspaceId), batch, Optional.empty()).toBuilder()
                .consistentRead(true)
                .build();
    }

    private UpdateItemRequest versionedUpdateAt(PrimaryKey key, Update update, long expectedVersion) {
        UpdateExpression u = update.increment(Items.VERSION).when(versionGuard(expectedVersion)).build();
        return UpdateItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(key))
                .updateExpression(u.update())
                .conditionExpression(u.condition())
                .expressionAttributeNames(u.names())
                .expressionAttributeValues(u.valuesOrNull())
                .returnValues(ReturnValue.ALL_NEW)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    private static Condition versionGuard(long expectedVersion) {
        Condition exists = Condition.attributeExists(KeyCodec.PARTITION_KEY);
        return expectedVersion == ANY_VERSION ? exists
                : exists.and(Condition.equalTo(Items.VERSION, AttributeValue.fromN(Long.toString(expectedVersion))));
    }

    private GetItemRequest getItem(PrimaryKey key) {
        return GetItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(key))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    private PutItemRequest create(Map<String, AttributeValue> item) {
        Expression keyIsFree = Condition.attributeNotExists(KeyCodec.PARTITION_KEY).build();
        return PutItemRequest.builder()
                .tableName(tableName)
                .item(item)
                .conditionExpression(keyIsFree.expression())
                .expressionAttributeNames(keyIsFree.names())
                .expressionAttributeValues(keyIsFree.valuesOrNull())
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    private QueryRequest query(Expression keyCondition, int limit, boolean ascending,
                               Optional<PrimaryKey> exclusiveStart) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive");
        }
        return QueryRequest.builder()
                .tableName(tableName)
                .keyConditionExpression(keyCondition.expression())
                .expressionAttributeNames(keyCondition.names())
                .expressionAttributeValues(keyCondition.valuesOrNull())
                .scanIndexForward(ascending)
                .limit(limit + 1)
                .exclusiveStartKey(exclusiveStart.map(Items::key).orElse(null))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }
}
