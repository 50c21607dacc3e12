package dev.oneread.operations;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ListPosition;
import dev.oneread.model.Project;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceCollection;
import dev.oneread.store.exceptions.NotFoundException;
import dev.oneread.store.internal.FanOut;
import dev.oneread.store.items.Items;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@code GET /workspaces/{workspaceId}/collection}: the workspace and its projects in key order, 1 Query per page;
 * for a hot workspace its own partition (for the workspace item) and every shard, all at once, merged.
 *
 * <pre>{@code QueryRequest q = GetWorkspaceCollectionOperation.generateRequest(context, WorkspaceId.of("acme"), 20, Optional.empty());}</pre>
 */
public final class GetWorkspaceCollectionOperation extends Operation {

    private static final KeyCodec.SortKeyRange READABLE = KeyCodec.collectionSortKeyRange();

    public static final GetWorkspaceCollectionOperation INSTANCE = new GetWorkspaceCollectionOperation();

    private GetWorkspaceCollectionOperation() {
        super(Descriptor.builder("workspace-collection")
                .route("GET", "/workspaces/{workspaceId}/collection")
                .function("GetWorkspaceCollection")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION
                        + " (and each shard's for a hot tenant) AND Detail BETWEEN " + READABLE.low() + " AND "
                        + READABLE.high() + ", in key order")
                .calls("1 Query (N for a hot tenant, 2N at most)")
                .budget(CostBudget.of(
                        "1 Query per page; a hot tenant's: 1 per partition, and at most 1 more per partition in a second"
                                + " round",
                        1,
                        CostBudget.Fan.COLLECTION_PARTITIONS,
                        0,
                        CostBudget.PAGE_READ))
                .build());
    }

    /**
     * The item collection in key order, {@code META} to the last {@code PROJ#...} (bookkeeping items such as
     * idempotency records sort outside that range): the first page starts with the workspace and the projects
     * follow oldest first.
     */
    public static QueryRequest generateRequest(
            OperationContext context, WorkspaceId workspaceId, int limit, Optional<String> startAfterSortKey) {
        return generateRequestIn(context, KeyCodec.workspacePartition(workspaceId), limit, startAfterSortKey);
    }

    /** The same query on one partition (the workspace's, or one shard of a hot workspace). */
    public static QueryRequest generateRequestIn(
            OperationContext context, String partition, int limit, Optional<String> startAfterSortKey) {
        Expression keyCondition = KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, partition)
                .sortBetween(KeyCodec.SORT_KEY, READABLE.low(), READABLE.high())
                .build();
        return context.table()
                .query(
                        keyCondition,
                        limit,
                        true,
                        startAfterSortKey.map(sort -> new PrimaryKey(partition, sort)),
                        false);
    }

    /**
     * The page the fan-out merged: the workspace item (on the first page) and the projects. A first page without
     * {@code META}, or a workspace being purged, is a 404.
     */
    public static WorkspaceCollection transformResponse(FanOut.Page page, Optional<ListPosition> position) {
        Optional<Workspace> workspace = Optional.empty();
        List<Project> projects = new ArrayList<>(page.items().size());
        for (Map<String, AttributeValue> item : page.items()) {
            if (Items.isWorkspace(item)) {
                if (Items.isPurging(item)) {
                    throw new NotFoundException("workspace");
                }
                workspace = Optional.of(Items.workspace(item));
            } else {
                projects.add(Items.project(item));
            }
        }
        if (position.isEmpty() && workspace.isEmpty()) {
            // The first page of a collection always holds META: without it the workspace does not exist.
            throw new NotFoundException("workspace");
        }
        return new WorkspaceCollection(workspace, projects, page.next());
    }

    @Override
    public QueryRequest sampleRequest(Sample sample) {
        return generateRequestIn(sample.context(), partition(sample), sample.limit(), Optional.empty());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return new KeyRange(partition(sample), SortOperator.BETWEEN, READABLE.low(), READABLE.high(), false);
    }

    /** The sample workspace's own partition (the collection's first, for a hot tenant). */
    private static String partition(Sample sample) {
        return KeyCodec.workspacePartition(sample.workspace());
    }
}
