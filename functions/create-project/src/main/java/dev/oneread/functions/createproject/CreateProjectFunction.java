package dev.oneread.functions.createproject;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.IdempotentRequests;
import dev.oneread.http.Representations;
import dev.oneread.http.RequestBodies;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.NewProject;
import dev.oneread.model.Project;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.idempotency.IdempotencyStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code POST /workspaces/{workspaceId}/projects}: GetItem (the workspace must exist; a read of it up to
 * WORKSPACE_REUSE_MILLIS old is reused, see RecentWorkspaces) then one conditional PutItem of a project whose id is
 * a fresh ULID; 201 with the project, 404 without the workspace. With an
 * Idempotency-Key, a retry gets the first response, and every attempt creates under the one id the key's
 * claim reserved.
 */
public final class CreateProjectFunction extends HttpApiFunction {
    private final ControlPlaneStore store;
    private final IdempotentRequests idempotency;
    private final IdempotentRequests.Ids<ProjectId> ids;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public CreateProjectFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("CreateProject"));
    }

    public CreateProjectFunction(DynamoDbClient client, FunctionConfig config) {
        this(client, config, Clock.systemUTC());
    }

    /** @param clock what idempotency records are dated by (tests move it past a claim's deadline) */
    public CreateProjectFunction(DynamoDbClient client, FunctionConfig config, Clock clock) {
        super(config, CreateProjectOperation.INSTANCE);
        this.store = itemStore(client, config)
                .withProjectQuota(config.projectQuota())
                .withRecentWorkspaces(config.recentWorkspaces());
        this.idempotency = new IdempotentRequests(new IdempotencyStore(client, config.tableName()), clock);
        Ulid ulids = Ulid.generator();
        this.ids = new IdempotentRequests.Ids<>(ulids::next, ProjectId::value, ProjectId::of);
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        WorkspaceId workspaceId = request.workspaceId();
        NewProject newProject = RequestBodies.newProject(request);
        return idempotency.run(request, workspaceId, tally, ids, (id, token) -> {
            // The id's own timestamp is the creation time, so createdAt and the sort order always agree.
            Project project = store.createProject(
                    workspaceId, id, newProject, Instant.ofEpochMilli(id.timestampMillis()), token, tally);
            return HttpResponse.json(201, Representations.project(project))
                    .withHeader("location", "/workspaces/" + workspaceId + "/projects/" + project.id())
                    .withHeader("etag", Representations.etag(project.version()));
        });
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return super.primingRequest().map(request -> request.withBody("{}")); // refused by validation
    }
}
