package dev.oneread.functions.getproject;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.model.Project;
import dev.oneread.operations.GetProjectOperation;
import dev.oneread.priming.PrimingSamples;
import dev.oneread.priming.PrimingSuccess;
import dev.oneread.priming.SampleStore;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code GET /workspaces/{workspaceId}/projects/{projectId}}: one project, one GetItem. */
public final class GetProjectFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public GetProjectFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("GetProject"));
    }

    public GetProjectFunction(DynamoDbClient client, FunctionConfig config) {
        super(config, GetProjectOperation.INSTANCE);
        this.store = itemStore(client, config);
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        return get(store, request, tally);
    }

    private static HttpResponse get(ControlPlaneStore store, ApiRequest request, CallTally tally) {
        Project project = store.getProject(request.workspaceId(), request.projectId(), tally);
        return HttpResponse.ok(Representations.project(project))
                .withHeader("etag", Representations.etag(project.version()));
    }

    @Override
    protected Optional<PrimingSuccess> primingSuccess() {
        SampleStore sample = SampleStore.of(store, PrimingSamples.PROJECT);
        return Optional.of(new PrimingSuccess(sample, (request, tally) -> get(sample.store(), request, tally)));
    }
}
