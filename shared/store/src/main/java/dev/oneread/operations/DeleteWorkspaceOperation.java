package dev.oneread.operations;

import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.store.items.Items;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@code DELETE /workspaces/{workspaceId}}, for operators: 1 UpdateItem marks the workspace purging and takes it out
 * of the registry; the function then sends its purge task (1 SQS SendMessage), which deletes its items.
 *
 * <pre>{@code UpdateItemRequest mark = DeleteWorkspaceOperation.generateRequest(context, id, ExpectedVersion.any(), runId, now);}</pre>
 */
public final class DeleteWorkspaceOperation extends Operation {
    public static final DeleteWorkspaceOperation INSTANCE = new DeleteWorkspaceOperation();

    private DeleteWorkspaceOperation() {
        super(Descriptor.builder("delete-workspace")
                .route("DELETE", "/workspaces/{workspaceId}")
                .function("DeleteWorkspace")
                .scope(Scope.OPERATOR)
                .inputs(Input.WORKSPACE)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " AND Detail = " + KeyShapes.META
                        + ", at the expected version if given")
                .calls("1 UpdateItem + 1 SQS SendMessage (the purge)")
                .budget(CostBudget.of(
                        "1 UpdateItem (marks it purging) + 1 SQS SendMessage (its purge task)",
                        1,
                        CostBudget.Fan.NONE,
                        0,
                        CostBudget.WRITE_WITH_INDEX_ENTRY))
                .build());
    }

    /**
     * Deletes a workspace, at the expected version if given: marks it purging (every read from now on is a 404,
     * and nothing is created in it), and takes it out of the registry at once, in this one write. The purge task
     * of {@code purgeRun} then deletes its items, and this one last.
     */
    public static UpdateItemRequest generateRequest(
            OperationContext context, WorkspaceId workspaceId, ExpectedVersion expected, String purgeRun, Instant now) {
        Update update = Update.set(Items.PURGE_RUN, AttributeValue.fromS(purgeRun))
                .andSet(Items.DELETED_AT, AttributeValue.fromS(now.toString()))
                .andSet(Items.UPDATED_AT, AttributeValue.fromS(now.toString()))
                .remove(KeyCodec.INDEX_PARTITION_KEY)
                .remove(KeyCodec.INDEX_SORT_KEY);
        return WriteConditions.versionedWorkspaceUpdate(context, workspaceId, update, expected);
    }

    @Override
    public UpdateItemRequest sampleRequest(Sample sample) {
        String purgeRun = sample.project().value(); // a ULID, as a purge run's id is
        return generateRequest(
                sample.context(), sample.workspace(), ExpectedVersion.exactly(1), purgeRun, sample.now());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(KeyCodec.workspaceKey(sample.workspace()));
    }
}
