package dev.oneread.functions.listprojects;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.operations.ListProjectsOperation;
import dev.oneread.priming.PrimingSamples;
import dev.oneread.priming.PrimingSuccess;
import dev.oneread.priming.SampleStore;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.secrets.CursorKeySecret;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code GET /workspaces/{workspaceId}/projects?limit=&cursor=}: newest first, one Query per page. */
public final class ListProjectsFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public ListProjectsFunction() {
        this(
                DynamoDbClients.shared(),
                QueryPool.shared(),
                FunctionConfig.fromEnvironment("ListProjects", CursorKeySecret::fromEnvironment));
    }

    /** @param pool runs the parallel fan-out over a hot workspace's shards */
    public ListProjectsFunction(DynamoDbClient client, QueryPool pool, FunctionConfig config) {
        super(config, ListProjectsOperation.INSTANCE);
        this.store = listingStore(client, pool, config);
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        return list(store, request, tally);
    }

    private static HttpResponse list(ControlPlaneStore store, ApiRequest request, CallTally tally) {
        Page<Project> page = store.listProjects(request.workspaceId(), request.limit(), request.cursor(), tally);
        return HttpResponse.ok(Representations.projectPage(page, request.nextCursor(page.next())));
    }

    @Override
    protected Optional<PrimingSuccess> primingSuccess() {
        SampleStore sample = SampleStore.of(store, PrimingSamples.PROJECT);
        return Optional.of(new PrimingSuccess(sample, (request, tally) -> list(sample.store(), request, tally)));
    }
}
