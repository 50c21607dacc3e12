package dev.oneread.operations;

import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.model.Project;
import dev.oneread.store.items.Items;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * {@code GET /workspaces/{workspaceId}/projects/{projectId}}: one project, 1 GetItem at its key (its shard, for a hot
 * workspace); while its workspace moves into shards, where it was and then where it goes: 2 at most.
 *
 * <pre>{@code GetItemRequest get = GetProjectOperation.generateRequest(context, key, false);}</pre>
 */
public final class GetProjectOperation extends Operation {
    public static final GetProjectOperation INSTANCE = new GetProjectOperation();

    private GetProjectOperation() {
        super(Descriptor.builder("project")
                .route("GET", "/workspaces/{workspaceId}/projects/{projectId}")
                .function("GetProject")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE, Input.PROJECT)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " (its shard's, "
                        + KeyShapes.SHARD_PARTITION + ", for a hot tenant)" + " AND Detail = " + KeyShapes.PROJECT_SORT)
                .calls("1 GetItem")
                .budget(CostBudget.of(
                        "1 GetItem (the shard is computed from the id; 2 while its tenant moves into shards)",
                        1,
                        CostBudget.Fan.LOCATIONS,
                        0,
                        CostBudget.ITEM_READ))
                .build());
    }

    /**
     * One project at one of its location's keys (see {@code ShardPlan#locate}): eventually consistent, or strongly
     * where a migration may just have copied it.
     */
    public static GetItemRequest generateRequest(OperationContext context, PrimaryKey key, boolean consistent) {
        return context.table().get(key, consistent);
    }

    /** The project the GetItem found (a tombstone is filtered out before: no project). */
    public static Project transformResponse(Map<String, AttributeValue> item) {
        return Items.project(item);
    }

    @Override
    public GetItemRequest sampleRequest(Sample sample) {
        return generateRequest(sample.context(), sample.projectKey(), false);
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(sample.projectKey());
    }
}
