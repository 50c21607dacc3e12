package dev.oneread.operations;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.store.internal.FanOut;
import dev.oneread.store.items.Items;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@code GET /workspaces/{workspaceId}/projects}: a workspace's projects newest first, 1 Query per page; for a hot
 * workspace 1 per shard, all at once, merged (see FanOut).
 *
 * <p>List requests ask for one item more than the page holds. That look-ahead item tells whether another page
 * exists, so the last page says so itself (no trailing empty page, no extra call), at the price of reading one more
 * small item, which rarely changes the 4 KB-rounded capacity.
 *
 * <pre>{@code QueryRequest q = ListProjectsOperation.generateRequest(OperationContext.of("oneread"), WorkspaceId.of("acme"), 20, Optional.empty());}</pre>
 */
public final class ListProjectsOperation extends Operation {
    public static final ListProjectsOperation INSTANCE = new ListProjectsOperation();

    private ListProjectsOperation() {
        super(Descriptor.builder("list-projects")
                .route("GET", "/workspaces/{workspaceId}/projects")
                .function("ListProjects")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " (and each shard's, "
                        + KeyShapes.SHARD_PARTITION + ", for a hot tenant)" + " AND begins_with(Detail, "
                        + KeyShapes.PROJECT_SORT_PREFIX + "), newest first")
                .calls("1 Query (N for a hot tenant, 2N at most)")
                .budget(CostBudget.of(
                        "1 Query per page; a hot tenant's: 1 per shard, and at most 1 more per shard in a second round",
                        1,
                        CostBudget.Fan.PROJECT_PARTITIONS,
                        0,
                        CostBudget.PAGE_READ))
                .build());
    }

    /**
     * Projects newest first: {@code EntityRef = WS#id AND begins_with(Detail, "PROJ#")}, descending, resuming
     * after {@code startAfter} when given.
     */
    public static QueryRequest generateRequest(
            OperationContext context, WorkspaceId workspaceId, int limit, Optional<ProjectId> startAfter) {
        return generateRequestIn(
                context, KeyCodec.workspacePartition(workspaceId), limit, startAfter.map(KeyCodec::projectSortKey));
    }

    /** The same query on one partition (a workspace's, or one shard of a hot workspace). */
    public static QueryRequest generateRequestIn(
            OperationContext context, String partition, int limit, Optional<String> startAfterSortKey) {
        return context.table()
                .query(
                        projectsIn(partition),
                        limit,
                        false,
                        startAfterSortKey.map(sort -> new PrimaryKey(partition, sort)),
                        false);
    }

    /** {@code EntityRef = partition AND begins_with(Detail, "PROJ#")}: the projects of one partition. */
    public static Expression projectsIn(String partition) {
        return KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition)
                .sortBeginsWith(KeyCodec.SORT_KEY, KeyCodec.projectSortKeyPrefix())
                .build();
    }

    /** The page the fan-out merged: its projects, and the position after it. */
    public static Page<Project> transformResponse(FanOut.Page page) {
        return new Page<>(page.items().stream().map(Items::project).toList(), page.next());
    }

    @Override
    public QueryRequest sampleRequest(Sample sample) {
        return generateRequest(sample.context(), sample.workspace(), sample.limit(), Optional.empty());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return new KeyRange(
                KeyCodec.workspacePartition(sample.workspace()),
                SortOperator.BEGINS_WITH,
                KeyCodec.projectSortKeyPrefix(),
                null,
                true);
    }
}
