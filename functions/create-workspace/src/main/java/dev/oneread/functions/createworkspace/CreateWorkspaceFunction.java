package dev.oneread.functions.createworkspace;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.IdempotentRequests;
import dev.oneread.http.Representations;
import dev.oneread.http.RequestBodies;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.Workspace;
import dev.oneread.operations.CreateWorkspaceOperation;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.idempotency.IdempotencyStore;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code POST /workspaces} (operators only): one conditional PutItem; 201, or 409 when the id is taken. With
 * an Idempotency-Key, a retry gets the first response.
 */
public final class CreateWorkspaceFunction extends HttpApiFunction {
    private final ControlPlaneStore store;
    private final IdempotentRequests idempotency;
    private final Clock clock;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public CreateWorkspaceFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("CreateWorkspace"));
    }

    public CreateWorkspaceFunction(DynamoDbClient client, FunctionConfig config) {
        this(client, config, Clock.systemUTC());
    }

    /** @param clock what workspaces and idempotency records are dated by */
    public CreateWorkspaceFunction(DynamoDbClient client, FunctionConfig config, Clock clock) {
        super(config, CreateWorkspaceOperation.INSTANCE);
        this.store = new ControlPlaneStore(client, config.tableName());
        this.clock = clock;
        this.idempotency = new IdempotentRequests(new IdempotencyStore(client, config.tableName()), clock);
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        request.requireOperator();
        NewWorkspace newWorkspace = RequestBodies.newWorkspace(request);
        // A workspace's id is the caller's own (in the body), so every attempt creates under it.
        IdempotentRequests.Ids<WorkspaceId> ids =
                new IdempotentRequests.Ids<>(newWorkspace::id, WorkspaceId::value, WorkspaceId::of);
        return idempotency.run(request, newWorkspace.id(), tally, ids, (id, token) -> {
            Workspace workspace =
                    store.createWorkspace(newWorkspace, clock.instant().truncatedTo(ChronoUnit.MILLIS), token, tally);
            return HttpResponse.json(201, Representations.workspace(workspace))
                    .withHeader("location", "/workspaces/" + workspace.id())
                    .withHeader("etag", Representations.etag(workspace.version()));
        });
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return super.primingRequest().map(request -> request.withBody("{}")); // refused by validation: no write
    }
}
