package dev.oneread.functions.getproject;

import dev.oneread.http.ApiRequest;
import dev.oneread.http.FunctionConfig;
import dev.oneread.http.HttpApiFunction;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.PrimingRequest;
import dev.oneread.http.PrimingSamples;
import dev.oneread.http.Representations;
import dev.oneread.model.Project;
import dev.oneread.store.CallTally;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.DynamoDbClients;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code GET /workspaces/{workspaceId}/projects/{projectId}}: one project, one GetItem. */
public final class GetProjectFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public GetProjectFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("GetProject"));
    }

    public GetProjectFunction(DynamoDbClient client, FunctionConfig config) {
        super(config);
        this.store = new ControlPlaneStore(client, null, config.tableName(), config.shardPlan());
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        return ok(store.getProject(request.workspaceId(), request.projectId(), tally));
    }

    private static HttpResponse ok(Project project) {
        return HttpResponse.ok(Representations.project(project))
                .withHeader("etag", Representations.etag(project.version()));
    }

    @Override
    protected Optional<Function<ApiRequest, HttpResponse>> primingSuccess() {
        return Optional.of(request -> ok(store.asRead(PrimingSamples.PROJECT)));
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return Optional.of(PrimingRequest.tenant("GET", "/workspaces/{workspaceId}/projects/{projectId}"));
    }
}
