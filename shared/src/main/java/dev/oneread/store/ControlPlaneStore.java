package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.SortKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.NewProject;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceCollection;
import dev.oneread.model.WorkspacePatch;
import dev.oneread.store.exceptions.AlreadyExistsException;
import dev.oneread.store.exceptions.InvalidCursorException;
import dev.oneread.store.exceptions.NotFoundException;
import dev.oneread.store.exceptions.PreconditionFailedException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * One method per access pattern. Each builds its request with {@link StoreRequests} (pure), makes exactly
 * one DynamoDB call (one per shard, in parallel, for a hot workspace's lists) tagged with the invocation's
 * {@link CallTally}, and maps the result back. SDK
 * exceptions are translated here, once, into the domain exceptions of {@code store.exceptions}.
 *
 * <pre>{@code Workspace ws = store.getWorkspace(WorkspaceId.of("acme"), tally);}</pre>
 */
public final class ControlPlaneStore {
    private final DynamoDbClient client;
    private final DynamoDbAsyncClient asyncClient;
    private final StoreRequests requests;
    private final ShardPlan plan;

    /** A store for unsharded workspaces only. */
    public ControlPlaneStore(DynamoDbClient client, String tableName) {
        this(client, null, tableName, ShardPlan.none());
    }

    /**
     * @param asyncClient for the parallel fan-out over a hot workspace's shards; null where the function
     *                    never lists (point reads and writes of a sharded workspace stay one sync call)
     * @param plan        which workspaces are sharded, and which are being migrated
     */
    public ControlPlaneStore(DynamoDbClient client, DynamoDbAsyncClient asyncClient, String tableName, ShardPlan plan) {
        this.client = client;
        this.asyncClient = asyncClient;
        this.requests = new StoreRequests(tableName, plan);
        this.plan = plan;
    }

    /** Workspace settings. 1 GetItem. */
    public Workspace getWorkspace(WorkspaceId id, CallTally tally) {
        GetItemResponse response = Calls.call(() -> client.getItem(ReadAudit.tagged(requests.getWorkspace(id), tally)));
        if (!response.hasItem() || response.item().isEmpty()) {
            throw new NotFoundException("workspace");
        }
        return Items.workspace(response.item());
    }

    /**
     * One project. 1 GetItem, in its shard for a hot workspace. While a workspace is being migrated, the
     * unsharded copy is read first (it is the current one as long as it exists), then the shard: 2 at most.
     */
    public Project getProject(WorkspaceId workspaceId, ProjectId projectId, CallTally tally) {
        if (plan.isMigrating(workspaceId)) {
            GetItemResponse unmoved = Calls.call(() -> client.getItem(ReadAudit.tagged(
                    requests.getItemAt(KeyCodec.projectKey(workspaceId, projectId)), tally)));
            if (unmoved.hasItem() && !unmoved.item().isEmpty()) {
                return Items.project(unmoved.item());
            }
        }
        GetItemRequest get = requests.getProject(workspaceId, projectId);
        // Mid-migration the shard read is consistent: it must see a copy made just before the source went.
        GetItemRequest read = plan.isMigrating(workspaceId) ? get.toBuilder().consistentRead(true).build() : get;
        GetItemResponse response = Calls.call(() -> client.getItem(ReadAudit.tagged(read, tally)));
        if (!response.hasItem() || response.item().isEmpty()) {
            throw new NotFoundException("project");
        }
        return Items.project(response.item());
    }

    /** Creates a workspace at version 1. 1 conditional PutItem; 409 territory if the id is taken. */
    public Workspace createWorkspace(NewWorkspace request, Instant now, CallTally tally) {
        Workspace workspace = new Workspace(request.id(), request.name(), request.settings(), now, now, 1);
        create(requests.createWorkspace(workspace), "workspace", tally);
        return workspace;
    }

    /**
     * Creates a project in an existing workspace: 1 GetItem (the workspace must exist) then 1 conditional
     * PutItem. Two calls because the engine has no transactions; see the README for the cost.
     */
    public Project createProject(WorkspaceId workspaceId, ProjectId projectId, NewProject request, Instant now,
                                 CallTally tally) {
        getWorkspace(workspaceId, tally);
        ProjectStatus status = request.status() == null ? ProjectStatus.ACTIVE : request.status();
        Project project = new Project(projectId, workspaceId, request.name(), request.description(), status,
                now, now, 1);
        create(requests.createProject(project), "project", tally);
        return project;
    }

    /** A conditional put that never overwrites: a taken key is an {@link AlreadyExistsException}. */
    private void create(PutItemRequest put, String what, CallTally tally) {
        try {
            Calls.call(() -> client.putItem(ReadAudit.tagged(put, tally)));
        } catch (Calls.ConditionFailed e) {
            throw new AlreadyExistsException(what, e.getCause());
        }
    }

    /**
     * Changes a workspace at the version the caller saw. 1 UpdateItem; when its condition fails, 1 consistent
     * GetItem more to tell a missing workspace (404) from a changed one (412).
     */
    public Workspace updateWorkspace(WorkspaceId id, WorkspacePatch patch, long expectedVersion, Instant now,
                                     CallTally tally) {
        try {
            UpdateItemResponse response = Calls.call(() -> client.updateItem(ReadAudit.tagged(
                    requests.updateWorkspace(id, patch, expectedVersion, now), tally)));
            return Items.workspace(response.attributes());
        } catch (Calls.ConditionFailed e) {
            throw conflict(KeyCodec.workspaceKey(id), "workspace", e, tally);
        }
    }

    /**
     * Changes a project at the version the caller saw: as {@link #updateWorkspace}. While its workspace is
     * being migrated, the unsharded copy is changed if it still exists (the move then re-copies it).
     */
    public Project updateProject(WorkspaceId workspaceId, ProjectId projectId, ProjectPatch patch,
                                 long expectedVersion, Instant now, CallTally tally) {
        if (plan.isMigrating(workspaceId)) {
            PrimaryKey unmoved = KeyCodec.projectKey(workspaceId, projectId);
            try {
                UpdateItemResponse response = Calls.call(() -> client.updateItem(ReadAudit.tagged(
                        requests.updateProjectAt(unmoved, patch, expectedVersion, now), tally)));
                return Items.project(response.attributes());
            } catch (Calls.ConditionFailed e) {
                RuntimeException outcome = conflict(unmoved, "project", e, tally);
                if (!(outcome instanceof NotFoundException)) {
                    throw outcome;
                }
            }
        }
        try {
            UpdateItemResponse response = Calls.call(() -> client.updateItem(ReadAudit.tagged(
                    requests.updateProject(workspaceId, projectId, patch, expectedVersion, now), tally)));
            return Items.project(response.attributes());
        } catch (Calls.ConditionFailed e) {
            throw conflict(plan.projectKey(workspaceId, projectId), "project", e, tally);
        }
    }

    /**
     * Deletes a project, at {@code expectedVersion} when positive. 1 DeleteItem; a failed condition with a
     * version costs 1 GetItem more to tell 404 from 412.
     */
    public void deleteProject(WorkspaceId workspaceId, ProjectId projectId, long expectedVersion, CallTally tally) {
        if (plan.isMigrating(workspaceId)) {
            PrimaryKey unmoved = KeyCodec.projectKey(workspaceId, projectId);
            try {
                Calls.call(() -> client.deleteItem(ReadAudit.tagged(requests.deleteProjectAt(unmoved, expectedVersion), tally)));
                // Gone from where it was current; its copy, if the move already made one, goes too.
                try {
                    Calls.call(() -> client.deleteItem(ReadAudit.tagged(requests.deleteProjectAt(
                            plan.projectKey(workspaceId, projectId), StoreRequests.ANY_VERSION), tally)));
                } catch (Calls.ConditionFailed noCopyYet) {
                    // nothing was copied: nothing more to delete
                }
                return;
            } catch (Calls.ConditionFailed e) {
                if (expectedVersion != StoreRequests.ANY_VERSION) {
                    RuntimeException outcome = conflict(unmoved, "project", e, tally);
                    if (!(outcome instanceof NotFoundException)) {
                        throw outcome;
                    }
                }
            }
        }
        try {
            Calls.call(() -> client.deleteItem(ReadAudit.tagged(
                    requests.deleteProject(workspaceId, projectId, expectedVersion), tally)));
        } catch (Calls.ConditionFailed e) {
            if (expectedVersion == StoreRequests.ANY_VERSION) {
                throw new NotFoundException("project");
            }
            throw conflict(plan.projectKey(workspaceId, projectId), "project", e, tally);
        }
    }

    private RuntimeException conflict(PrimaryKey key, String what, Calls.ConditionFailed failure, CallTally tally) {
        GetItemResponse current = Calls.call(() -> client.getItem(ReadAudit.tagged(requests.readAfterConflict(key), tally)));
        if (!current.hasItem() || current.item().isEmpty()) {
            return new NotFoundException(what);
        }
        return new PreconditionFailedException(what, failure.getCause());
    }

    /**
     * Projects newest first. 1 Query per page; for a hot workspace, 1 per shard, all at once, merged (and 1
     * more for its unsharded partition while it is being migrated).
     */
    public Page<Project> listProjects(WorkspaceId workspaceId, int limit, Optional<String> position, CallTally tally) {
        List<String> partitions = plan.projectPartitions(workspaceId);
        FanOut.Position start = position.map(p -> FanOut.Position.parse(p, partitions.size(), ControlPlaneStore::projectPosition))
                .orElse(FanOut.Position.first());
        FanOut.Page page = FanOut.run(client, asyncClient, partitions, start, limit,
                (partition, after) -> requests.listProjectsIn(partition, limit, after), Comparator.reverseOrder(),
                plan.isMigrating(workspaceId), tally);
        List<Project> projects = new ArrayList<>(page.items().size());
        page.items().forEach(item -> projects.add(Items.project(item)));
        return new Page<>(projects, page.next().map(FanOut.Position::encode));
    }

    /**
     * The workspace and its projects, in key order. 1 Query per page; for a hot workspace, its own partition
     * (for the workspace item) and every shard, all at once, merged.
     */
    public WorkspaceCollection getWorkspaceCollection(WorkspaceId workspaceId, int limit, Optional<String> position,
                                                      CallTally tally) {
        List<String> partitions = new ArrayList<>();
        partitions.add(KeyCodec.workspacePartition(workspaceId));
        plan.projectPartitions(workspaceId).stream().filter(p -> !partitions.contains(p)).forEach(partitions::add);
        FanOut.Position start = position.map(p -> FanOut.Position.parse(p, partitions.size(), ControlPlaneStore::collectionPosition))
                .orElse(FanOut.Position.first());
        FanOut.Page page = FanOut.run(client, asyncClient, partitions, start, limit,
                (partition, after) -> requests.workspaceCollectionIn(partition, limit, after), Comparator.naturalOrder(),
                plan.isMigrating(workspaceId), tally);
        Optional<Workspace> workspace = Optional.empty();
        List<Project> projects = new ArrayList<>(page.items().size());
        for (Map<String, AttributeValue> item : page.items()) {
            SortKey kind = KeyCodec.decodeSortKey(item.get(KeyCodec.SORT_KEY).s());
            if (kind instanceof SortKey.WorkspaceMeta) {
                workspace = Optional.of(Items.workspace(item));
            } else {
                projects.add(Items.project(item));
            }
        }
        if (position.isEmpty() && workspace.isEmpty()) {
            // The first page of a collection always holds META: without it the workspace does not exist.
            throw new NotFoundException("workspace");
        }
        return new WorkspaceCollection(workspace, projects, page.next().map(FanOut.Position::encode));
    }




    private static ProjectId projectPosition(String sortKey) {
        if (collectionPosition(sortKey) instanceof SortKey.ProjectEntry entry) {
            return entry.projectId();
        }
        throw new InvalidCursorException(null);
    }

    private static SortKey collectionPosition(String sortKey) {
        try {
            return KeyCodec.decodeSortKey(sortKey);
        } catch (KeyCodec.InvalidKeyException e) {
            throw new InvalidCursorException(e);
        }
    }
}
