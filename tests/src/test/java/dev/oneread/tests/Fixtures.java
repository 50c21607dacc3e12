package dev.oneread.tests;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.NewProject;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.CallTally;
import dev.oneread.store.ControlPlaneStore;
import java.time.Instant;
import java.util.Map;

/**
 * The data the files in events/ expect, reset before each use: workspace {@code acme} at version 1 with
 * projects {@code ...W6} (read and patched) and {@code ...W7} (deleted), and no workspace {@code globex}
 * (create-workspace.json creates it).
 */
final class Fixtures {
    static final String PROJECT = "01JDQ6V7K4N3M2P1R0S9T8V7W6";
    static final String PROJECT_TO_DELETE = "01JDQ6V7K4N3M2P1R0S9T8V7W7";

    private Fixtures() {
    }

    static void seedForEventFiles(TestEngine engine) {
        // acme's shards too: the migration event moves acme's projects there.
        for (String partition : new String[] {"WS#acme", "WS#globex", "WS#acme#01", "WS#acme#02", "WS#acme#03", "WS#acme#04"}) {
            Partitions.items(engine.client, partition).forEach(item -> engine.client.deleteItem(b -> b
                    .tableName(TestEngine.TABLE)
                    .key(Map.of("EntityRef", item.get("EntityRef"), "Detail", item.get("Detail")))));
        }
        ControlPlaneStore store = new ControlPlaneStore(engine.client, TestEngine.TABLE);
        Instant created = Instant.parse("2026-12-01T09:00:00Z");
        WorkspaceId acme = WorkspaceId.of("acme");
        store.createWorkspace(new NewWorkspace(acme, "Acme", Map.of("plan", "team")), created, new CallTally());
        for (String id : new String[] {PROJECT, PROJECT_TO_DELETE}) {
            store.createProject(acme, ProjectId.of(id), new NewProject("Fixture", null, ProjectStatus.ACTIVE), created,
                    new CallTally());
        }
    }
}
