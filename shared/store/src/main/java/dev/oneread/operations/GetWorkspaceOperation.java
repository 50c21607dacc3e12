package dev.oneread.operations;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.Workspace;
import dev.oneread.store.exceptions.NotFoundException;
import dev.oneread.store.items.Items;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;

/**
 * {@code GET /workspaces/{workspaceId}}: a workspace's settings, one eventually consistent GetItem of its
 * {@code META} item. A workspace being purged is gone already (404).
 *
 * <pre>{@code GetItemRequest get = GetWorkspaceOperation.generateRequest(OperationContext.of("oneread"), WorkspaceId.of("acme"));}</pre>
 */
public final class GetWorkspaceOperation extends Operation {
    public static final GetWorkspaceOperation INSTANCE = new GetWorkspaceOperation();

    private GetWorkspaceOperation() {
        super(Descriptor.builder("workspace")
                .route("GET", "/workspaces/{workspaceId}")
                .function("GetWorkspace")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " AND Detail = " + KeyShapes.META)
                .calls("1 GetItem")
                .budget(CostBudget.of("1 GetItem", 1, CostBudget.Fan.NONE, 0, CostBudget.ITEM_READ))
                .build());
    }

    /** One eventually consistent GetItem of {@code WS#id / META}. */
    public static GetItemRequest generateRequest(OperationContext context, WorkspaceId workspaceId) {
        return context.table().get(KeyCodec.workspaceKey(workspaceId), false);
    }

    /** The workspace the GetItem found; none, or one being purged, is a 404. */
    public static Workspace transformResponse(Optional<Map<String, AttributeValue>> item) {
        return Items.workspace(item.filter(Items::isLive).orElseThrow(() -> new NotFoundException("workspace")));
    }

    @Override
    public GetItemRequest sampleRequest(Sample sample) {
        return generateRequest(sample.context(), sample.workspace());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(KeyCodec.workspaceKey(sample.workspace()));
    }
}
