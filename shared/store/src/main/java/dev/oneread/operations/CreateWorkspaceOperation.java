package dev.oneread.operations;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Workspace;
import dev.oneread.store.items.Items;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * {@code POST /workspaces}, for operators: creates a workspace at version 1 with 1 conditional PutItem that never
 * overwrites; with an Idempotency-Key, 3 calls (claim, put, complete).
 *
 * <pre>{@code PutItemRequest put = CreateWorkspaceOperation.generateRequest(context, workspace, CreationToken.random());}</pre>
 */
public final class CreateWorkspaceOperation extends Operation {
    public static final CreateWorkspaceOperation INSTANCE = new CreateWorkspaceOperation();

    private CreateWorkspaceOperation() {
        super(Descriptor.builder("create-workspace")
                .route("POST", "/workspaces")
                .function("CreateWorkspace")
                .scope(Scope.OPERATOR)
                .inputs(Input.WORKSPACE)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " AND Detail = " + KeyShapes.META
                        + ", if absent; GSI1 " + KeyShapes.REGISTRY_INDEX_PARTITION + " / "
                        + KeyShapes.WORKSPACE_PARTITION)
                .calls("1 PutItem")
                .budget(CostBudget.of(
                        "1 PutItem; with Idempotency-Key 3 (claim, put, complete)",
                        1,
                        CostBudget.Fan.NONE,
                        3,
                        CostBudget.WRITE_WITH_INDEX_ENTRY))
                .build());
    }

    /**
     * Creates a workspace, never overwriting one: the put is conditional on the key being free. It carries its
     * registry entry's index keys, so the workspace is listed across workspaces from this one write on.
     */
    public static PutItemRequest generateRequest(OperationContext context, Workspace workspace, CreationToken token) {
        Map<String, AttributeValue> item = Items.workspaceItem(workspace);
        item.putAll(IndexEntries.registryEntry(context.plan(), workspace.id()));
        return WriteConditions.create(context, item, token);
    }

    @Override
    public PutItemRequest sampleRequest(Sample sample) {
        return generateRequest(
                sample.context(),
                new Workspace(sample.workspace(), "Sample", Map.of(), sample.now(), sample.now(), 1),
                CreationToken.random());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(KeyCodec.workspaceKey(sample.workspace()));
    }
}
