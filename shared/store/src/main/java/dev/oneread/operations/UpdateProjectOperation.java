package dev.oneread.operations;

import dev.oneread.expr.Update;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.ProjectPatch;
import dev.oneread.store.items.Items;
import java.time.Instant;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@code PATCH /workspaces/{workspaceId}/projects/{projectId}}: 1 UpdateItem at the version the caller saw, at the
 * first key of the project's location that holds it (2 while its tenant moves into shards).
 *
 * <pre>{@code UpdateItemRequest update = UpdateProjectOperation.generateRequest(context, key, patch, ExpectedVersion.exactly(2), now);}</pre>
 */
public final class UpdateProjectOperation extends Operation {
    public static final UpdateProjectOperation INSTANCE = new UpdateProjectOperation();

    private UpdateProjectOperation() {
        super(Descriptor.builder("update-project")
                .route("PATCH", "/workspaces/{workspaceId}/projects/{projectId}")
                .function("UpdateProject")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE, Input.PROJECT)
                .keyCondition("EntityRef = " + KeyShapes.PROJECT_PARTITION + " AND Detail = " + KeyShapes.PROJECT_SORT
                        + ", at the expected version")
                .calls("1 UpdateItem")
                .budget(CostBudget.of(
                        "1 UpdateItem (2 while its tenant moves into shards)",
                        1,
                        CostBudget.Fan.LOCATIONS,
                        0,
                        CostBudget.WRITE_MOVING_INDEX_ENTRY))
                .build());
    }

    /** Changes a project at one of its location's keys, at the expected version, bumping it; never creates one. */
    public static UpdateItemRequest generateRequest(
            OperationContext context, PrimaryKey key, ProjectPatch patch, ExpectedVersion expected, Instant now) {
        Update update = Update.set(Items.UPDATED_AT, AttributeValue.fromS(now.toString()));
        if (patch.name() != null) {
            update.andSet(Items.NAME, AttributeValue.fromS(patch.name()));
        }
        if (patch.description() != null) {
            update.andSet(Items.DESCRIPTION, AttributeValue.fromS(patch.description()));
        } else if (patch.removeDescription()) {
            update.remove(Items.DESCRIPTION);
        }
        if (patch.status() != null) {
            update.andSet(Items.STATUS, AttributeValue.fromS(patch.status().name()));
            // The project moves to its new status's index partition in this same write: no second call.
            IndexEntries.statusEntry(context.plan(), patch.status().name(), KeyCodec.decodeProjectSortKey(key.sort()))
                    .forEach(update::andSet);
        }
        return WriteConditions.versionedUpdate(context, key, update, WriteConditions.versionGuard(expected));
    }

    @Override
    public UpdateItemRequest sampleRequest(Sample sample) {
        return generateRequest(
                sample.context(),
                sample.projectKey(),
                new ProjectPatch("Renamed", null, false, null),
                ExpectedVersion.exactly(1),
                sample.now());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(sample.projectKey());
    }
}
