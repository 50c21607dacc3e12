package dev.oneread.functions.getworkspacecollection;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.model.WorkspaceCollection;
import dev.oneread.operations.GetWorkspaceCollectionOperation;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.secrets.CursorKeySecret;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code GET /workspaces/{workspaceId}/collection?limit=&cursor=}: the workspace and its projects from one
 * Query per page over the item collection.
 */
public final class GetWorkspaceCollectionFunction extends HttpApiFunction {
    private final ControlPlaneStore store;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public GetWorkspaceCollectionFunction() {
        this(
                DynamoDbClients.shared(),
                QueryPool.shared(),
                FunctionConfig.fromEnvironment("GetWorkspaceCollection", CursorKeySecret::fromEnvironment));
    }

    /** @param pool runs the parallel fan-out over a hot workspace's shards */
    public GetWorkspaceCollectionFunction(DynamoDbClient client, QueryPool pool, FunctionConfig config) {
        super(config, GetWorkspaceCollectionOperation.INSTANCE);
        this.store = listingStore(client, pool, config);
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        WorkspaceCollection page =
                store.getWorkspaceCollection(request.workspaceId(), request.limit(), request.cursor(), tally);
        return HttpResponse.ok(Representations.collection(page, request.nextCursor(page.next())));
    }
}
