package dev.oneread.functions.listworkspaces;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.model.Page;
import dev.oneread.model.Workspace;
import dev.oneread.operations.ListWorkspacesOperation;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.secrets.CursorKeySecret;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code GET /workspaces?limit=&cursor=}, for operators: every workspace in id order, from the registry entries of
 * the cross-workspace index; one Query per index shard per page, all at once. No Scan.
 */
public final class ListWorkspacesFunction extends HttpApiFunction {
    /** What the cursor of this list is bound to, besides the route: there is one registry. */
    private static final String SCOPE = "registry";

    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared clients and the function's environment. */
    public ListWorkspacesFunction() {
        this(
                DynamoDbClients.shared(),
                QueryPool.shared(),
                FunctionConfig.fromEnvironment("ListWorkspaces", CursorKeySecret::fromEnvironment));
    }

    /** @param pool runs the parallel fan-out over the index shards */
    public ListWorkspacesFunction(DynamoDbClient client, QueryPool pool, FunctionConfig config) {
        super(config, ListWorkspacesOperation.INSTANCE);
        this.store = listingStore(client, pool, config);
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        request.requireOperator();
        Page<Workspace> page = store.listWorkspaces(request.limit(), request.cursor(SCOPE), tally);
        return HttpResponse.ok(Representations.workspacePage(page, request.nextCursor(page.next(), SCOPE)));
    }
}
