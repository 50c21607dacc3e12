package dev.oneread.local.runner;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.NewProject;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.ProjectStatus;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.exceptions.AlreadyExistsException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The small world the files in events/ are written against: workspace {@code acme} (version 1) with project
 * {@code ...W6} (read and patched by the events) and {@code ...W7} (deleted by delete-project.json), and no
 * workspace {@code globex} (create-workspace.json creates it).
 *
 * <p>It is written through the store, so its keys come from the key codec and its writes are the same
 * conditional puts the create routes make: seeding never overwrites, and seeding twice changes nothing.
 *
 * <pre>{@code SampleData.seed(client, "oneread", ShardPlan.none(), System.err);}</pre>
 */
public final class SampleData {
    public static final WorkspaceId WORKSPACE = WorkspaceId.of("acme");
    /** Read by get-project.json and patched (If-Match "1") by update-project.json. */
    public static final ProjectId PROJECT = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");
    /** Deleted by delete-project.json. */
    public static final ProjectId PROJECT_TO_DELETE = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W7");

    private static final Instant CREATED = Instant.parse("2026-12-01T09:00:00Z");

    private SampleData() {}

    /** What one seeding did: the items it wrote, and those it found already there and left alone. */
    public record Outcome(List<String> created, List<String> kept) {}

    /**
     * Writes every sample item that is missing, into the partitions {@code plan} gives them (a hot tenant's
     * projects go to their shards, as the create route would put them).
     */
    public static Outcome seed(DynamoDbClient client, String tableName, ShardPlan plan, PrintStream log) {
        ControlPlaneStore store = new ControlPlaneStore(client, null, tableName, plan);
        List<String> created = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        String workspace = "workspace " + WORKSPACE;
        createUnlessPresent(
                created,
                kept,
                workspace,
                () -> store.createWorkspace(
                        new NewWorkspace(WORKSPACE, "Acme", Map.of("plan", "team")),
                        CREATED,
                        CreationToken.random(),
                        new CallTally()));
        Map<ProjectId, NewProject> projects = Map.of(
                PROJECT, new NewProject("Website", "The public site", ProjectStatus.ACTIVE),
                PROJECT_TO_DELETE, new NewProject("Old landing page", null, ProjectStatus.ARCHIVED));
        for (ProjectId id : List.of(PROJECT, PROJECT_TO_DELETE)) {
            createUnlessPresent(
                    created,
                    kept,
                    "project " + id,
                    () -> store.createProject(
                            WORKSPACE, id, projects.get(id), CREATED, CreationToken.random(), new CallTally()));
        }
        log.println("sample data in " + tableName + ": "
                + (created.isEmpty() ? "nothing new" : "created " + String.join(", ", created))
                + (kept.isEmpty() ? "" : "; already there, left as they are: " + String.join(", ", kept)));
        return new Outcome(List.copyOf(created), List.copyOf(kept));
    }

    private static void createUnlessPresent(List<String> created, List<String> kept, String item, Runnable create) {
        try {
            create.run();
            created.add(item);
        } catch (AlreadyExistsException e) {
            kept.add(item);
        }
    }
}
