package dev.oneread.tests;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.NewProject;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.CallTally;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.exceptions.AlreadyExistsException;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The data the files in events/ expect: workspace {@code acme} with project {@code 01JDQ6V7K4N3M2P1R0S9T8V7W6},
 * and no workspace {@code globex} (create-workspace.json creates it).
 */
final class Fixtures {
    static final String PROJECT = "01JDQ6V7K4N3M2P1R0S9T8V7W6";

    private Fixtures() {
    }

    static void seedForEventFiles(TestEngine engine) {
        ControlPlaneStore store = new ControlPlaneStore(engine.client, TestEngine.TABLE);
        Instant created = Instant.parse("2026-12-01T09:00:00Z");
        try {
            store.createWorkspace(new NewWorkspace(WorkspaceId.of("acme"), "Acme", Map.of("plan", "team")), created,
                    new CallTally());
        } catch (AlreadyExistsException alreadySeeded) {
            // another test class seeded it first
        }
        try {
            store.createProject(WorkspaceId.of("acme"), ProjectId.of(PROJECT),
                    new NewProject("Fixture", null, ProjectStatus.ACTIVE), created, new CallTally());
        } catch (AlreadyExistsException alreadySeeded) {
            // same
        }
        engine.client.deleteItem(b -> b.tableName(TestEngine.TABLE).key(Map.of(
                "EntityRef", AttributeValue.fromS("WS#globex"), "Detail", AttributeValue.fromS("META"))));
    }
}
