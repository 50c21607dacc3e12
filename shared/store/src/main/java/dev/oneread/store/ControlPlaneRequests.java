package dev.oneread.store;

import static dev.oneread.store.items.ItemConditions.notPurging;
import static dev.oneread.store.items.ItemConditions.projectsIn;
import static dev.oneread.store.items.ItemConditions.versionGuard;

import dev.oneread.expr.Condition;
import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspacePatch;
import dev.oneread.store.internal.TableRequests;
import dev.oneread.store.items.AttributeValues;
import dev.oneread.store.items.IndexEntries;
import dev.oneread.store.items.Items;
import java.time.Instant;
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
 * Pure request building for workspaces and projects, one method per access pattern: no I/O, so tests compare
 * whole SDK requests and the {@code expr} command prints exactly what the store sends.
 *
 * <p>List requests ask for one item more than the page holds. That look-ahead item tells whether another
 * page exists, so the last page says so itself (no trailing empty page, no extra call), at the price of
 * reading one more small item, which rarely changes the 4 KB-rounded capacity.
 *
 * <pre>{@code QueryRequest q = new ControlPlaneRequests("oneread").listProjects(WorkspaceId.of("acme"), 20, Optional.empty());}</pre>
 */
public final class ControlPlaneRequests {
    private final TableRequests table;
    private final ShardPlan plan;
    private final IndexEntries entries;

    public ControlPlaneRequests(String tableName) {
        this(tableName, ShardPlan.none());
    }

    /** @param plan where each workspace's projects live (sharded hot tenants) */
    public ControlPlaneRequests(String tableName, ShardPlan plan) {
        this.table = new TableRequests(tableName);
        this.plan = plan;
        this.entries = new IndexEntries(plan.index());
    }

    /** Workspace settings: one eventually consistent GetItem of {@code WS#id / META}. */
    public GetItemRequest getWorkspace(WorkspaceId workspaceId) {
        return table.get(KeyCodec.workspaceKey(workspaceId), false);
    }

    /**
     * One project at one of its location's keys (see {@link ShardPlan#locate}): eventually consistent, or strongly
     * where a migration may just have copied it.
     */
    public GetItemRequest getProject(PrimaryKey key, boolean consistent) {
        return table.get(key, consistent);
    }

    /**
     * Creates a workspace, never overwriting one: the put is conditional on the key being free. It carries its
     * registry entry's index keys, so the workspace is listed across workspaces from this one write on.
     */
    public PutItemRequest createWorkspace(Workspace workspace, CreationToken token) {
        Map<String, AttributeValue> item = Items.workspaceItem(workspace);
        item.putAll(registryEntry(workspace.id()));
        return table.put(created(item, token), keyIsFree());
    }

    /**
     * Creates a project at its home (its shard, for a hot workspace), never overwriting one; with the index keys of
     * its status, so it is listed by status from this one write on.
     */
    public PutItemRequest createProject(Project project, CreationToken token) {
        PrimaryKey home = plan.locate(project.workspaceId(), project.id()).home();
        Map<String, AttributeValue> item = Items.projectItem(project, home);
        item.putAll(statusEntry(project.status().name(), project.id()));
        return table.put(created(item, token), keyIsFree());
    }

    /** The index keys of a workspace's registry entry: {@code WSREG#nn} / {@code WS#id}. */
    public Map<String, AttributeValue> registryEntry(WorkspaceId workspaceId) {
        return entries.registryEntry(workspaceId);
    }

    /** The index keys of a project with {@code status}: {@code STATUS#<status>#nn} / {@code PROJ#<ulid>}. */
    public Map<String, AttributeValue> statusEntry(String status, ProjectId projectId) {
        return entries.statusEntry(status, projectId);
    }

    /**
     * Projects with one status in one index partition, newest first: {@code GSI1PK = partition}, and below the
     * position's sort key when resuming. Eventually consistent: a GSI offers nothing else.
     */
    public QueryRequest projectsByStatusIn(String partition, int limit, Optional<String> beforeSortKey) {
        KeyCondition condition = KeyCondition.partitionEquals(KeyCodec.INDEX_PARTITION_KEY, partition);
        Expression keyCondition = beforeSortKey
                .map(sort -> condition.sort(KeyCondition.SortOperator.LT, KeyCodec.INDEX_SORT_KEY, sort, null))
                .orElse(condition.sort(
                        KeyCondition.SortOperator.BEGINS_WITH,
                        KeyCodec.INDEX_SORT_KEY,
                        KeyCodec.projectSortKeyPrefix(),
                        null))
                .build();
        return table.queryIndex(KeyCodec.INDEX_NAME, keyCondition, limit, false);
    }

    /** Workspaces of one registry partition in id order, after the position's sort key when resuming. */
    public QueryRequest workspacesIn(String partition, int limit, Optional<String> afterSortKey) {
        KeyCondition condition = KeyCondition.partitionEquals(KeyCodec.INDEX_PARTITION_KEY, partition);
        Expression keyCondition = afterSortKey
                .map(sort -> condition.sort(KeyCondition.SortOperator.GT, KeyCodec.INDEX_SORT_KEY, sort, null))
                .orElse(condition)
                .build();
        return table.queryIndex(KeyCodec.INDEX_NAME, keyCondition, limit, true);
    }

    /** An item to create, marked with the request creating it: a refused retry recognises its own item by it. */
    private static Map<String, AttributeValue> created(Map<String, AttributeValue> item, CreationToken token) {
        item.put(Items.CREATION_TOKEN, AttributeValue.fromS(token.value()));
        return item;
    }

    /**
     * Projects newest first: {@code EntityRef = WS#id AND begins_with(Detail, "PROJ#")}, descending, resuming
     * after {@code startAfter} when given.
     */
    public QueryRequest listProjects(WorkspaceId workspaceId, int limit, Optional<ProjectId> startAfter) {
        return listProjectsIn(
                KeyCodec.workspacePartition(workspaceId), limit, startAfter.map(KeyCodec::projectSortKey));
    }

    /** The same query on one partition (a workspace's, or one shard of a hot workspace). */
    public QueryRequest listProjectsIn(String partition, int limit, Optional<String> startAfterSortKey) {
        return table.query(projectsIn(partition), limit, false, after(partition, startAfterSortKey), false);
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
        return table.query(keyCondition, limit, true, after(partition, startAfterSortKey), false);
    }

    /**
     * Changes a workspace at the version the caller expects (its ETag), bumping the version. The condition also
     * requires the item to exist, so an update never creates one.
     */
    public UpdateItemRequest updateWorkspace(
            WorkspaceId workspaceId, WorkspacePatch patch, ExpectedVersion expected, Instant now) {
        Update update = Update.set(Items.UPDATED_AT, AttributeValue.fromS(now.toString()));
        if (patch.name() != null) {
            update.andSet(Items.NAME, AttributeValue.fromS(patch.name()));
        }
        if (patch.settings() != null) {
            update.andSet(Items.SETTINGS, AttributeValues.fromJson(patch.settings()));
        }
        if (patch.projectQuota() != null) {
            update.andSet(
                    Items.PROJECT_QUOTA,
                    AttributeValue.fromN(patch.projectQuota().toString()));
        }
        // The registry entry's keys, again: the same values every time, and a workspace written before the index
        // existed joins the registry with its first update.
        registryEntry(workspaceId).forEach(update::andSet);
        return versionedWorkspaceUpdate(workspaceId, update, expected);
    }

    /**
     * Deletes a workspace, at the expected version if given: marks it purging (every read from now on is a 404,
     * and nothing is created in it), and takes it out of the registry at once, in this one write. The purge task
     * of {@code purgeRun} then deletes its items, and this one last.
     */
    public UpdateItemRequest deleteWorkspace(
            WorkspaceId workspaceId, ExpectedVersion expected, String purgeRun, Instant now) {
        Update update = Update.set(Items.PURGE_RUN, AttributeValue.fromS(purgeRun))
                .andSet(Items.DELETED_AT, AttributeValue.fromS(now.toString()))
                .andSet(Items.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .remove(KeyCodec.INDEX_PARTITION_KEY)
                .remove(KeyCodec.INDEX_SORT_KEY);
        return versionedWorkspaceUpdate(workspaceId, update, expected);
    }

    /** A versioned update of a workspace that is not being purged: a DELETE wins over every later write. */
    private UpdateItemRequest versionedWorkspaceUpdate(
            WorkspaceId workspaceId, Update update, ExpectedVersion expected) {
        return table.update(
                KeyCodec.workspaceKey(workspaceId),
                update.increment(Items.VERSION)
                        .when(versionGuard(expected).and(notPurging()))
                        .build(),
                ReturnValue.ALL_NEW);
    }

    /** Changes a project at one of its location's keys, at the expected version, bumping it; never creates one. */
    public UpdateItemRequest updateProject(PrimaryKey key, ProjectPatch patch, ExpectedVersion expected, Instant now) {
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
            // The project moves to its new status's index partition in this same write: no second call.
            statusEntry(patch.status().name(), KeyCodec.decodeProjectSortKey(key.sort()))
                    .forEach(update::andSet);
        }
        return versionedUpdate(key, update, expected);
    }

    /** Deletes a project that exists at one of its location's keys, at the expected version. */
    public DeleteItemRequest deleteProject(PrimaryKey key, ExpectedVersion expected) {
        return table.delete(key, Optional.of(versionGuard(expected).build()));
    }

    /**
     * The tombstone a DELETE leaves at a project's shard key while its workspace moves into shards: written
     * whatever is there (a copy the move already made is the deleted project too), so that the move's copy, which
     * takes only a free key or an older version, is refused. Reads and versioned writes treat it as no item.
     */
    public PutItemRequest tombstone(PrimaryKey key) {
        return table.put(Items.tombstone(key));
    }

    /**
     * A strongly consistent read of one item, to tell "gone" from "changed" after a conditional write failed on
     * an engine that did not return the item with the failure (dynalite drops ReturnValuesOnConditionCheckFailure).
     */
    public GetItemRequest readAfterConflict(PrimaryKey key) {
        return table.get(key, true);
    }

    private UpdateItemRequest versionedUpdate(PrimaryKey key, Update update, ExpectedVersion expected) {
        return table.update(
                key,
                update.increment(Items.VERSION).when(versionGuard(expected)).build(),
                ReturnValue.ALL_NEW);
    }

    private static Expression keyIsFree() {
        return Condition.attributeNotExists(KeyCodec.PARTITION_KEY).build();
    }

    private static Optional<PrimaryKey> after(String partition, Optional<String> sortKey) {
        return sortKey.map(sort -> new PrimaryKey(partition, sort));
    }
}
