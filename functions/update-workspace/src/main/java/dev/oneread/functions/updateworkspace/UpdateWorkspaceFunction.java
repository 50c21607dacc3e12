package dev.oneread.functions.updateworkspace;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.http.RequestBodies;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspacePatch;
import dev.oneread.operations.UpdateWorkspaceOperation;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code PATCH /workspaces/{workspaceId}} with {@code If-Match}: one conditional UpdateItem at the version the
 * caller read; 200 with the new ETag, 412 if it changed meanwhile, 428 without If-Match. A tenant may change its
 * name and settings; the project quota only an operator (403 otherwise, before any call).
 */
public final class UpdateWorkspaceFunction extends HttpApiFunction {
    private final ControlPlaneStore store;
    private final Clock clock;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public UpdateWorkspaceFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("UpdateWorkspace"));
    }

    public UpdateWorkspaceFunction(DynamoDbClient client, FunctionConfig config) {
        super(config, UpdateWorkspaceOperation.INSTANCE);
        this.store = new ControlPlaneStore(client, config.tableName());
        this.clock = Clock.systemUTC();
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        WorkspaceId workspaceId = request.workspaceId();
        // The body first, then the precondition: a bad body is a 400 whatever the If-Match, since a stale one is
        // only found by the write itself, which needs a valid body (docs/security.md, "Writes").
        WorkspacePatch patch = RequestBodies.workspacePatch(request);
        if (patch.projectQuota() != null) {
            request.requireOperator();
        }
        ExpectedVersion expectedVersion = request.ifMatchVersion();
        Workspace workspace = store.updateWorkspace(
                workspaceId, patch, expectedVersion, clock.instant().truncatedTo(ChronoUnit.MILLIS), tally);
        return HttpResponse.ok(Representations.workspace(workspace))
                .withHeader("etag", Representations.etag(workspace.version()));
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return super.primingRequest()
                .map(request -> request.withHeader("if-match", PrimingRequest.NO_SUCH_VERSION)
                        .withBody("{\"name\":\"priming\"}"));
    }
}
