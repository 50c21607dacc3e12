package dev.oneread.functions.getworkspace;

import dev.oneread.http.ApiRequest;
import dev.oneread.http.FunctionConfig;
import dev.oneread.http.HttpApiFunction;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.PrimingRequest;
import dev.oneread.http.PrimingSamples;
import dev.oneread.http.Representations;
import dev.oneread.model.Workspace;
import dev.oneread.store.CallTally;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.DynamoDbClients;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code GET /workspaces/{workspaceId}}: workspace settings, one GetItem. */
public final class GetWorkspaceFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public GetWorkspaceFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("GetWorkspace"));
    }

    public GetWorkspaceFunction(DynamoDbClient client, FunctionConfig config) {
        super(config);
        this.store = new ControlPlaneStore(client, config.tableName());
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        return ok(store.getWorkspace(request.workspaceId(), tally));
    }

    private static HttpResponse ok(Workspace workspace) {
        return HttpResponse.ok(Representations.workspace(workspace))
                .withHeader("etag", Representations.etag(workspace.version()));
    }

    @Override
    protected Optional<Function<ApiRequest, HttpResponse>> primingSuccess() {
        return Optional.of(request -> ok(store.asRead(PrimingSamples.WORKSPACE)));
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return Optional.of(PrimingRequest.tenant("GET", "/workspaces/{workspaceId}"));
    }
}
