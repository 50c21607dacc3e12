package dev.oneread.operations;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.model.Page;
import dev.oneread.model.Project;
import dev.oneread.store.internal.FanOut;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@code GET /projects?status=}, for operators: projects with one status across every workspace, newest first, from
 * the cross-workspace index: 1 Query per index shard per page, all at once, merged (see FanOut). Eventually
 * consistent: a GSI offers nothing else.
 *
 * <pre>{@code QueryRequest q = ListProjectsByStatusOperation.generateRequestIn(context, "STATUS#ACTIVE#01", 20, Optional.empty());}</pre>
 */
public final class ListProjectsByStatusOperation extends Operation {

    /** Shared with ListWorkspaces: the index's fan-out, described once. */
    static final String INDEX_QUERIES = "1 Query per index shard per page (IndexShards, 8 by default), from"
            + " the index, and at most 1 more per shard in a second round";

    public static final ListProjectsByStatusOperation INSTANCE = new ListProjectsByStatusOperation();

    private ListProjectsByStatusOperation() {
        super(Descriptor.builder("by-status")
                .route("GET", "/projects", "?status=")
                .function("ListProjectsByStatus")
                .scope(Scope.OPERATOR)
                .inputs(Input.STATUS, Input.INDEX_SHARD)
                .keyCondition(
                        "GSI1PK = " + KeyShapes.STATUS_INDEX_PARTITION + " (each index shard) AND begins_with(GSI1SK, "
                                + KeyShapes.PROJECT_SORT_PREFIX + "), newest first")
                .calls("S Queries on GSI1 (2S at most)")
                .budget(CostBudget.of(INDEX_QUERIES, 1, CostBudget.Fan.INDEX_SHARDS, 0, CostBudget.PAGE_READ))
                .build());
    }

    /**
     * Projects with one status in one index partition, newest first: {@code GSI1PK = partition}, and below the
     * position's sort key when resuming.
     */
    public static QueryRequest generateRequestIn(
            OperationContext context, String partition, int limit, Optional<String> beforeSortKey) {
        KeyCondition condition = KeyCondition.partitionEquals(KeyCodec.INDEX_PARTITION_KEY, partition);
        Expression keyCondition = beforeSortKey
                .map(sort -> condition.sort(SortOperator.LT, KeyCodec.INDEX_SORT_KEY, sort, null))
                .orElse(condition.sort(
                        SortOperator.BEGINS_WITH, KeyCodec.INDEX_SORT_KEY, KeyCodec.projectSortKeyPrefix(), null))
                .build();
        return context.table().queryIndex(KeyCodec.INDEX_NAME, keyCondition, limit, false);
    }

    /** The page the fan-out merged: its projects, as a workspace's list decodes them, and the position after it. */
    public static Page<Project> transformResponse(FanOut.Page page) {
        return ListProjectsOperation.transformResponse(page);
    }

    @Override
    public QueryRequest sampleRequest(Sample sample) {
        return generateRequestIn(sample.context(), partition(sample), sample.limit(), Optional.empty());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return new KeyRange(partition(sample), SortOperator.BEGINS_WITH, KeyCodec.projectSortKeyPrefix(), null, true);
    }

    /** The sample's index shard of its status. */
    private static String partition(Sample sample) {
        return sample.plan().index().statusPartitions(sample.status().name()).get(sample.shard() - 1);
    }
}
