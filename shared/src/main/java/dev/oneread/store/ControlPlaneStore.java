package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.SortKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.NewProject;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceCollection;
import dev.oneread.store.exceptions.AlreadyExistsException;
import dev.oneread.store.exceptions.InvalidCursorException;
import dev.oneread.store.exceptions.NotFoundException;
import dev.oneread.store.exceptions.StoreFailureException;
import dev.oneread.store.exceptions.StoreUnavailableException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

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
        GetItemResponse response = call(() -> client.getItem(ReadAudit.tagged(requests.getWorkspace(id), tally)));
        if (!response.hasItem() || response.item().isEmpty()) {
            throw new NotFoundException("workspace");
        }
        return Items.workspace(response.item());
    }

    /** One project. 1 GetItem. */
    public Project getProject(WorkspaceId workspaceId, ProjectId projectId, CallTally tally) {
        GetItemResponse response = call(() ->
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
            call(() -> client.putItem(ReadAudit.tagged(requests.createWorkspace(workspace), tally)));
        } catch (ConditionFailed e) {
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
            call(() -> client.putItem(ReadAudit.tagged(requests.createProject(project), tally)));
        } catch (ConditionFailed e) {
            throw new AlreadyExistsException("project", e.getCause());
        }
        return project;
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
            return call(() -> client.query(ReadAudit.tagged(request, tally)));
        } catch (ConditionFailed e) {
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

    /** Runs one SDK call and translates its exceptions; a failed condition is left to the caller's meaning. */
    private static <T> T call(Supplier<T> sdkCall) {
        try {
            return sdkCall.get();
        } catch (ConditionalCheckFailedException e) {
            throw new ConditionFailed(e);
        } catch (ApiCallTimeoutException | ApiCallAttemptTimeoutException e) {
            throw new StoreUnavailableException(e);
        } catch (DynamoDbException e) {
            if (e.isThrottlingException() || e.statusCode() >= 500) {
                throw new StoreUnavailableException(e);
            }
            throw new StoreFailureException(e);
        } catch (SdkClientException e) {
            // No response at all: connection refused, reset, or DNS. Nothing was acknowledged.
            throw new StoreUnavailableException(e);
        } catch (SdkException e) {
            throw new StoreFailureException(e);
        }
    }

    /** Internal signal: the write's condition failed. Each caller says what that means in its domain. */
    private static final class ConditionFailed extends RuntimeException {
        ConditionFailed(ConditionalCheckFailedException cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }
}
