package dev.oneread.functions.getworkspace;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.model.Workspace;
import dev.oneread.operations.GetWorkspaceOperation;
import dev.oneread.priming.PrimingSamples;
import dev.oneread.priming.PrimingSuccess;
import dev.oneread.priming.SampleStore;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code GET /workspaces/{workspaceId}}: workspace settings, one GetItem. */
public final class GetWorkspaceFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public GetWorkspaceFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("GetWorkspace"));
    }

    public GetWorkspaceFunction(DynamoDbClient client, FunctionConfig config) {
        super(config, GetWorkspaceOperation.INSTANCE);
        this.store = new ControlPlaneStore(client, config.tableName());
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        return get(store, request, tally);
    }

    private static HttpResponse get(ControlPlaneStore store, ApiRequest request, CallTally tally) {
        Workspace workspace = store.getWorkspace(request.workspaceId(), tally);
        return HttpResponse.ok(Representations.workspace(workspace))
                .withHeader("etag", Representations.etag(workspace.version()));
    }

    @Override
    protected Optional<PrimingSuccess> primingSuccess() {
        SampleStore sample = SampleStore.of(store, PrimingSamples.WORKSPACE);
        return Optional.of(new PrimingSuccess(sample, (request, tally) -> get(sample.store(), request, tally)));
    }
}
