package dev.oneread.functions.listprojectsbystatus;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.ListProjectsByStatusOperation;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.secrets.CursorKeySecret;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code GET /projects?status=&limit=&cursor=}, for operators: projects with one status across every workspace,
 * newest first, from the cross-workspace index; one Query per index shard per page, all at once.
 */
public final class ListProjectsByStatusFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared clients and the function's environment. */
    public ListProjectsByStatusFunction() {
        this(
                DynamoDbClients.shared(),
                QueryPool.shared(),
                FunctionConfig.fromEnvironment("ListProjectsByStatus", CursorKeySecret::fromEnvironment));
    }

    /** @param pool runs the parallel fan-out over the index shards */
    public ListProjectsByStatusFunction(DynamoDbClient client, QueryPool pool, FunctionConfig config) {
        super(config, ListProjectsByStatusOperation.INSTANCE);
        this.store = listingStore(client, pool, config);
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        request.requireOperator();
        ProjectStatus status = request.statusParameter();
        String scope = "status=" + status.name();
        Page<Project> page = store.listProjectsByStatus(status, request.limit(), request.cursor(scope), tally);
        return HttpResponse.ok(Representations.projectPage(page, request.nextCursor(page.next(), scope)));
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return super.primingRequest().map(request -> request.withQuery("status", "ACTIVE"));
    }
}
