package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
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
import dev.oneread.store.exceptions.StoreFailureException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * One method per access pattern. Each builds its request with {@link StoreRequests} (pure), makes exactly
 * one DynamoDB call tagged with the invocation's {@link CallTally}, and maps the result back. SDK
 * exceptions are translated here, once, into the domain exceptions of {@code store.exceptions}.
 *
 * <pre>{@code Workspace ws = store.getWorkspace(WorkspaceId.of("acme"), tally);}</pre>
 */
public final class ControlPlaneStore {
    private final DynamoDbClient client;
    private final StoreRequests requests;

    public ControlPlaneStore(DynamoDbClient client, String tableName) {
        this.client = client;
        this.requests = new StoreRequests(tableName);
    }

    public StoreRequests requests() {
        return requests;
    }

    /** Workspace settings. 1 GetItem. */
    public Workspace getWorkspace(WorkspaceId id, CallTally tally) {
        GetItemResponse response = Calls.call(() -> client.getItem(ReadAudit.tagged(requests.getWorkspace(id), tally)));
        if (!response.hasItem() || response.item().isEmpty()) {
            throw new NotFoundException("workspace");
        }
        return Items.workspace(response.item());
    }

    /** One project. 1 GetItem. */
    public Project getProject(WorkspaceId workspaceId, ProjectId projectId, CallTally tally) {
        GetItemResponse response = Calls.call(() ->
                client.getItem(ReadAudit.tagged(requests.getProject(workspaceId, projectId), tally)));
        if (!response.hasItem() || response.item().isEmpty()) {
            throw new NotFoundException("project");
        }
        return Items.project(response.item());
    }

    /** Creates a workspace at version 1. 1 conditional PutItem; 409 territory if the id is taken. */
    public Workspace createWorkspace(NewWorkspace request, Instant now, CallTally tally) {
        Workspace workspace = new Workspace(request.id(), request.name(), request.settings(), now, now, 1);
        try {
            Calls.call(() -> client.putItem(ReadAudit.tagged(requests.createWorkspace(workspace), tally)));
        } catch (Calls.ConditionFailed e) {
            throw new AlreadyExistsException("workspace", e.getCause());
        }
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
        try {
            Calls.call(() -> client.putItem(ReadAudit.tagged(requests.createProject(project), tally)));
        } catch (Calls.ConditionFailed e) {
            throw new AlreadyExistsException("project", e.getCause());
        }
        return project;
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

    /** Changes a project at the version the caller saw: as {@link #updateWorkspace}. */
    public Project updateProject(WorkspaceId workspaceId, ProjectId projectId, ProjectPatch patch,
                                 long expectedVersion, Instant now, CallTally tally) {
        try {
            UpdateItemResponse response = Calls.call(() -> client.updateItem(ReadAudit.tagged(
                    requests.updateProject(workspaceId, projectId, patch, expectedVersion, now), tally)));
            return Items.project(response.attributes());
        } catch (Calls.ConditionFailed e) {
            throw conflict(KeyCodec.projectKey(workspaceId, projectId), "project", e, tally);
        }
    }

    /**
     * Deletes a project, at {@code expectedVersion} when positive. 1 DeleteItem; a failed condition with a
     * version costs 1 GetItem more to tell 404 from 412.
     */
    public void deleteProject(WorkspaceId workspaceId, ProjectId projectId, long expectedVersion, CallTally tally) {
        try {
            Calls.call(() -> client.deleteItem(ReadAudit.tagged(
                    requests.deleteProject(workspaceId, projectId, expectedVersion), tally)));
        } catch (Calls.ConditionFailed e) {
            if (expectedVersion == StoreRequests.ANY_VERSION) {
                throw new NotFoundException("project");
            }
            throw conflict(KeyCodec.projectKey(workspaceId, projectId), "project", e, tally);
        }
    }

    private RuntimeException conflict(PrimaryKey key, String what, Calls.ConditionFailed failure, CallTally tally) {
        GetItemResponse current = Calls.call(() -> client.getItem(ReadAudit.tagged(requests.readAfterConflict(key), tally)));
        if (!current.hasItem() || current.item().isEmpty()) {
            return new NotFoundException(what);
        }
        return new PreconditionFailedException(what, failure.getCause());
    }

    /** Projects newest first. 1 Query per page. */
    public Page<Project> listProjects(WorkspaceId workspaceId, int limit, Optional<String> startAfterSortKey,
                                      CallTally tally) {
        Optional<ProjectId> startAfter = startAfterSortKey.map(ControlPlaneStore::projectPosition);
        QueryResponse response = query(requests.listProjects(workspaceId, limit, startAfter), tally);
        List<Map<String, AttributeValue>> items = pageItems(response, limit);
        List<Project> projects = new ArrayList<>(items.size());
        items.forEach(item -> projects.add(Items.project(item)));
        return new Page<>(projects, nextPosition(response, items, limit));
    }

    /** The workspace and its projects, in key order. 1 Query per page. */
    public WorkspaceCollection getWorkspaceCollection(WorkspaceId workspaceId, int limit,
                                                      Optional<String> startAfterSortKey, CallTally tally) {
        startAfterSortKey.ifPresent(ControlPlaneStore::collectionPosition);
        QueryResponse response = query(requests.workspaceCollection(workspaceId, limit, startAfterSortKey), tally);
        List<Map<String, AttributeValue>> items = pageItems(response, limit);
        Optional<Workspace> workspace = Optional.empty();
        List<Project> projects = new ArrayList<>(items.size());
        for (Map<String, AttributeValue> item : items) {
            SortKey kind = KeyCodec.decodeSortKey(item.get(KeyCodec.SORT_KEY).s());
            if (kind instanceof SortKey.WorkspaceMeta) {
                workspace = Optional.of(Items.workspace(item));
            } else {
                projects.add(Items.project(item));
            }
        }
        if (startAfterSortKey.isEmpty() && workspace.isEmpty()) {
            // The first page of a collection always holds META: without it the workspace does not exist.
            throw new NotFoundException("workspace");
        }
        return new WorkspaceCollection(workspace, projects, nextPosition(response, items, limit));
    }

    private QueryResponse query(QueryRequest request, CallTally tally) {
        try {
            return Calls.call(() -> client.query(ReadAudit.tagged(request, tally)));
        } catch (Calls.ConditionFailed e) {
            throw new StoreFailureException(e.getCause());
        }
    }

    private static List<Map<String, AttributeValue>> pageItems(QueryResponse response, int limit) {
        List<Map<String, AttributeValue>> items = response.items();
        return items.size() > limit ? items.subList(0, limit) : items;
    }

    /**
     * Where the next page starts: after the last item shown when the look-ahead item came back, or after
     * DynamoDB's own LastEvaluatedKey when the 1 MB limit cut the page short.
     */
    private static Optional<String> nextPosition(QueryResponse response, List<Map<String, AttributeValue>> shown,
                                                 int limit) {
        if (response.items().size() > limit) {
            return Optional.of(shown.get(shown.size() - 1).get(KeyCodec.SORT_KEY).s());
        }
        if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() && !shown.isEmpty()) {
            return Optional.of(response.lastEvaluatedKey().get(KeyCodec.SORT_KEY).s());
        }
        return Optional.empty();
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
