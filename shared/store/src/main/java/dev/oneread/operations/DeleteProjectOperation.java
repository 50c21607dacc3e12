package dev.oneread.operations;

import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.store.items.Items;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * {@code DELETE /workspaces/{workspaceId}/projects/{projectId}}: 1 DeleteItem at the expected version. While its
 * tenant moves into shards: where it may be (2), then 1 consistent GetItem of the migration lease and, while a run
 * holds it, 1 tombstone PutItem at its shard key: 3 at most.
 *
 * <pre>{@code DeleteItemRequest delete = DeleteProjectOperation.generateRequest(context, key, ExpectedVersion.exactly(2));}</pre>
 */
public final class DeleteProjectOperation extends Operation {
    public static final DeleteProjectOperation INSTANCE = new DeleteProjectOperation();

    private DeleteProjectOperation() {
        super(Descriptor.builder("delete-project")
                .route("DELETE", "/workspaces/{workspaceId}/projects/{projectId}")
                .function("DeleteProject")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE, Input.PROJECT)
                .keyCondition("EntityRef = " + KeyShapes.PROJECT_PARTITION + " AND Detail = " + KeyShapes.PROJECT_SORT
                        + ", at the expected version")
                .calls("1 DeleteItem")
                .budget(CostBudget.of(
                        "1 DeleteItem (while its tenant moves into shards: 2 where it may be, then 1 consistent GetItem of"
                                + " the migration lease and, while a run holds it, 1 tombstone PutItem: 3 at most)",
                        1,
                        CostBudget.Fan.LOCATIONS_DELETE,
                        0,
                        CostBudget.WRITE_WITH_INDEX_ENTRY))
                .build());
    }

    /** Deletes a project that exists at one of its location's keys, at the expected version. */
    public static DeleteItemRequest generateRequest(
            OperationContext context, PrimaryKey key, ExpectedVersion expected) {
        return context.table()
                .delete(key, Optional.of(WriteConditions.versionGuard(expected).build()));
    }

    /**
     * The tombstone a DELETE leaves at a project's shard key while its workspace moves into shards: written
     * whatever is there (a copy the move already made is the deleted project too), so that the move's copy, which
     * takes only a free key or an older version, is refused. Reads and versioned writes treat it as no item.
     */
    public static PutItemRequest tombstone(OperationContext context, PrimaryKey key) {
        return context.table().put(Items.tombstone(key));
    }

    @Override
    public DeleteItemRequest sampleRequest(Sample sample) {
        return generateRequest(sample.context(), sample.projectKey(), ExpectedVersion.exactly(1));
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(sample.projectKey());
    }
}
