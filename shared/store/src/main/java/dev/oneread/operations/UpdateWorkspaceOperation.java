package dev.oneread.operations;

import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.WorkspacePatch;
import dev.oneread.store.items.AttributeValues;
import dev.oneread.store.items.Items;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@code PATCH /workspaces/{workspaceId}}: 1 UpdateItem at the version the caller saw (its ETag); a refusal is told
 * apart (404 or 412) by the item DynamoDB returns with it, or 1 consistent GetItem on an engine that returns none.
 *
 * <pre>{@code UpdateItemRequest update = UpdateWorkspaceOperation.generateRequest(context, id, patch, ExpectedVersion.exactly(3), now);}</pre>
 */
public final class UpdateWorkspaceOperation extends Operation {
    public static final UpdateWorkspaceOperation INSTANCE = new UpdateWorkspaceOperation();

    private UpdateWorkspaceOperation() {
        super(Descriptor.builder("update-workspace")
                .route("PATCH", "/workspaces/{workspaceId}")
                .function("UpdateWorkspace")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " AND Detail = " + KeyShapes.META
                        + ", at the expected version")
                .calls("1 UpdateItem")
                .budget(CostBudget.of("1 UpdateItem", 1, CostBudget.Fan.NONE, 0, CostBudget.WRITE_WITH_INDEX_ENTRY))
                .build());
    }

    /**
     * Changes a workspace at the version the caller expects (its ETag), bumping the version. The condition also
     * requires the item to exist, so an update never creates one, and a workspace being purged to be left alone.
     */
    public static UpdateItemRequest generateRequest(
            OperationContext context,
            WorkspaceId workspaceId,
            WorkspacePatch patch,
            ExpectedVersion expected,
            Instant now) {
        Update update = Update.set(Items.UPDATED_AT, AttributeValue.fromS(now.toString()));
        if (patch.name() != null) {
            update.andSet(Items.NAME, AttributeValue.fromS(patch.name()));
        }
        if (patch.settings() != null) {
            update.andSet(Items.SETTINGS, AttributeValues.fromJson(patch.settings()));
        }
        if (patch.projectQuota() != null) {
            update.andSet(
                    Items.PROJECT_QUOTA,
                    AttributeValue.fromN(patch.projectQuota().toString()));
        }
        // The registry entry's keys, again: the same values every time, and a workspace written before the index
        // existed joins the registry with its first update.
        IndexEntries.registryEntry(context.plan(), workspaceId).forEach(update::andSet);
        return WriteConditions.versionedWorkspaceUpdate(context, workspaceId, update, expected);
    }

    @Override
    public UpdateItemRequest sampleRequest(Sample sample) {
        return generateRequest(
                sample.context(),
                sample.workspace(),
                new WorkspacePatch("Renamed", null),
                ExpectedVersion.exactly(1),
                sample.now());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(KeyCodec.workspaceKey(sample.workspace()));
    }
}
