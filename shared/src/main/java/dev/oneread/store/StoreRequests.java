package dev.oneread.store;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.Project;
import dev.oneread.model.Workspace;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

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

    public StoreRequests(String tableName) {
        if (tableName == null || tableName.isBlank()) {
            throw new IllegalArgumentException("table name is not specified");
        }
        this.tableName = tableName;
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
        return getItem(KeyCodec.projectKey(workspaceId, projectId));
    }

    /** Creates a workspace, never overwriting one: the put is conditional on the key being free. */
    public PutItemRequest createWorkspace(Workspace workspace) {
        return create(Items.workspaceItem(workspace));
    }

    /** Creates a project, never overwriting one. */
    public PutItemRequest createProject(Project project) {
        return create(Items.projectItem(project));
    }

    /**
     * Projects newest first: {@code EntityRef = WS#id AND begins_with(Detail, "PROJ#")}, descending, resuming
     * after {@code startAfter} when given.
     */
    public QueryRequest listProjects(WorkspaceId workspaceId, int limit, Optional<ProjectId> startAfter) {
        String partition = KeyCodec.workspacePartition(workspaceId);
        Expression keyCondition = KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition)
                .sortBeginsWith(KeyCodec.SORT_KEY, KeyCodec.projectSortKeyPrefix())
                .build();
        return query(keyCondition, limit, false,
                startAfter.map(id -> KeyCodec.projectKey(workspaceId, id)));
    }

    /**
     * The whole item collection in key order: {@code META} (the workspace) sorts before {@code PROJ#...}, so
     * the first page starts with the workspace and the projects follow oldest first.
     */
    public QueryRequest workspaceCollection(WorkspaceId workspaceId, int limit, Optional<String> startAfterSortKey) {
        String partition = KeyCodec.workspacePartition(workspaceId);
        Expression keyCondition = KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition).build();
        return query(keyCondition, limit, true,
                startAfterSortKey.map(sort -> new PrimaryKey(partition, sort)));
    }

    private GetItemRequest getItem(PrimaryKey key) {
        return GetItemRequest.builder()
                .tableName(tableName)
                .key(Items.key(key))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    private PutItemRequest create(Map<String, AttributeValue> item) {
        Expression keyIsFree = Condition.attributeNotExists(KeyCodec.PARTITION_KEY);
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
