package dev.oneread.operations;

import dev.oneread.keys.KeyShapes;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.store.items.Items;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * {@code POST /workspaces/{workspaceId}/projects}: 1 GetItem (the workspace exists; {@link GetWorkspaceOperation}'s)
 * then 1 conditional PutItem of the project at its home, never overwriting. Two calls because the engine has no
 * transactions; with an Idempotency-Key, 4 (claim, get, put, complete).
 *
 * <pre>{@code PutItemRequest put = CreateProjectOperation.generateRequest(context, project, CreationToken.random());}</pre>
 */
public final class CreateProjectOperation extends Operation {
    public static final CreateProjectOperation INSTANCE = new CreateProjectOperation();

    private CreateProjectOperation() {
        super(Descriptor.builder("create-project")
                .route("POST", "/workspaces/{workspaceId}/projects")
                .function("CreateProject")
                .scope(Scope.TENANT)
                .inputs(Input.WORKSPACE)
                .keyCondition("EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " AND Detail = " + KeyShapes.META
                        + " (read); EntityRef = "
                        + KeyShapes.PROJECT_PARTITION + " AND Detail = " + KeyShapes.NEW_PROJECT_SORT
                        + ", if absent; GSI1 "
                        + KeyShapes.STATUS_INDEX_PARTITION + " / " + KeyShapes.NEW_PROJECT_SORT)
                .calls("1 GetItem + 1 PutItem")
                .budget(CostBudget.of(
                        "1 GetItem (the workspace exists) + 1 PutItem; with Idempotency-Key 4 (claim, get, put, complete)",
                        2,
                        CostBudget.Fan.NONE,
                        4,
                        CostBudget.WRITE_WITH_INDEX_ENTRY))
                .build());
    }

    /**
     * Creates a project at its home (its shard, for a hot workspace), never overwriting one; with the index keys of
     * its status, so it is listed by status from this one write on.
     */
    public static PutItemRequest generateRequest(OperationContext context, Project project, CreationToken token) {
        PrimaryKey home =
                context.plan().locate(project.workspaceId(), project.id()).home();
        Map<String, AttributeValue> item = Items.projectItem(project, home);
        item.putAll(IndexEntries.statusEntry(context.plan(), project.status().name(), project.id()));
        return WriteConditions.create(context, item, token);
    }

    @Override
    public PutItemRequest sampleRequest(Sample sample) {
        return generateRequest(
                sample.context(),
                new Project(
                        sample.project(),
                        sample.workspace(),
                        "Sample",
                        null,
                        sample.status(),
                        sample.now(),
                        sample.now(),
                        1),
                CreationToken.random());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.item(sample.projectKey());
    }
}
