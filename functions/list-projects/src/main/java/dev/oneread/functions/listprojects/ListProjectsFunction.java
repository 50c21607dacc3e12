package dev.oneread.functions.listprojects;

import dev.oneread.http.ApiRequest;
import dev.oneread.http.FunctionConfig;
import dev.oneread.http.HttpApiFunction;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.PrimingRequest;
import dev.oneread.http.PrimingSamples;
import dev.oneread.http.Representations;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.store.CallTally;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.DynamoDbClients;
import dev.oneread.store.QueryPool;
import java.util.Optional;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code GET /workspaces/{workspaceId}/projects?limit=&cursor=}: newest first, one Query per page. */
public final class ListProjectsFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public ListProjectsFunction() {
        this(DynamoDbClients.shared(), QueryPool.shared(), FunctionConfig.fromEnvironment("ListProjects"));
    }

    /** @param pool runs the parallel fan-out over a hot workspace's shards */
    public ListProjectsFunction(DynamoDbClient client, QueryPool pool, FunctionConfig config) {
        super(config);
        this.store = new ControlPlaneStore(client, pool, config.tableName(), config.shardPlan());
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        return ok(request, store.listProjects(request.workspaceId(), request.limit(), request.cursor(), tally));
    }

    private static HttpResponse ok(ApiRequest request, Page<Project> page) {
        return HttpResponse.ok(Representations.projectPage(page, request.nextCursor(page.next())));
    }

    @Override
    protected Optional<Function<ApiRequest, HttpResponse>> primingSuccess() {
        return Optional.of(request -> ok(request, store.asReadPage(PrimingSamples.PROJECT)));
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return Optional.of(PrimingRequest.tenant("GET", "/workspaces/{workspaceId}/projects"));
    }
}
