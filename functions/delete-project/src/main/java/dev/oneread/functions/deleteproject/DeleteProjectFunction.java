package dev.oneread.functions.deleteproject;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.operations.DeleteProjectOperation;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code DELETE /workspaces/{workspaceId}/projects/{projectId}}: one conditional DeleteItem; 204, or 404 when
 * there is no such project. An optional {@code If-Match} deletes only that version (412 otherwise).
 */
public final class DeleteProjectFunction extends HttpApiFunction {
    private final ControlPlaneStore store;
    /** When a migration lease ends: whether a DELETE during a migration leaves a tombstone. */
    private final Clock clock;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public DeleteProjectFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("DeleteProject"));
    }

    public DeleteProjectFunction(DynamoDbClient client, FunctionConfig config) {
        super(config, DeleteProjectOperation.INSTANCE);
        this.store = itemStore(client, config);
        this.clock = Clock.systemUTC();
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        store.deleteProject(
                request.workspaceId(), request.projectId(), request.optionalIfMatchVersion(), clock.instant(), tally);
        return new HttpResponse(204, Map.of(), "");
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return super.primingRequest().map(request -> request.withHeader("if-match", PrimingRequest.NO_SUCH_VERSION));
    }
}
