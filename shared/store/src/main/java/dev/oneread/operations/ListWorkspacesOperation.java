package dev.oneread.operations;

import dev.oneread.expr.Expression;
import dev.oneread.expr.KeyCondition;
import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.model.Page;
import dev.oneread.model.Workspace;
import dev.oneread.store.internal.FanOut;
import dev.oneread.store.items.Items;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@code GET /workspaces}, for operators: every workspace in id order, from the index's registry: 1 Query per
 * registry shard per page, all at once, merged. Eventually consistent.
 *
 * <pre>{@code QueryRequest q = ListWorkspacesOperation.generateRequestIn(context, "WSREG#01", 20, Optional.empty());}</pre>
 */
public final class ListWorkspacesOperation extends Operation {
    public static final ListWorkspacesOperation INSTANCE = new ListWorkspacesOperation();

    private ListWorkspacesOperation() {
        super(Descriptor.builder("workspaces")
                .route("GET", "/workspaces")
                .function("ListWorkspaces")
                .scope(Scope.OPERATOR)
                .inputs(Input.INDEX_SHARD)
                .keyCondition("GSI1PK = " + KeyShapes.REGISTRY_INDEX_PARTITION + " (each index shard), in id order")
                .calls("S Queries on GSI1 (2S at most)")
                .budget(CostBudget.of(
                        ListProjectsByStatusOperation.INDEX_QUERIES,
                        1,
                        CostBudget.Fan.INDEX_SHARDS,
                        0,
                        CostBudget.PAGE_READ))
                .build());
    }

    /** Workspaces of one registry partition in id order, after the position's sort key when resuming. */
    public static QueryRequest generateRequestIn(
            OperationContext context, String partition, int limit, Optional<String> afterSortKey) {
        KeyCondition condition = KeyCondition.partitionEquals(KeyCodec.INDEX_PARTITION_KEY, partition);
        Expression keyCondition = afterSortKey
                .map(sort -> condition.sort(SortOperator.GT, KeyCodec.INDEX_SORT_KEY, sort, null))
                .orElse(condition)
                .build();
        return context.table().queryIndex(KeyCodec.INDEX_NAME, keyCondition, limit, true);
    }

    /** The page the fan-out merged: its workspaces, and the position after it. */
    public static Page<Workspace> transformResponse(FanOut.Page page) {
        return new Page<>(page.items().stream().map(Items::workspace).toList(), page.next());
    }

    @Override
    public QueryRequest sampleRequest(Sample sample) {
        return generateRequestIn(sample.context(), partition(sample), sample.limit(), Optional.empty());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.partition(partition(sample));
    }

    /** The sample's shard of the registry. */
    private static String partition(Sample sample) {
        return sample.plan().index().registryPartitions().get(sample.shard() - 1);
    }
}
