package dev.oneread.local.catalogue;

import static dev.oneread.local.catalogue.AccessPattern.Input.INDEX_SHARD;
import static dev.oneread.local.catalogue.AccessPattern.Input.PROJECT;
import static dev.oneread.local.catalogue.AccessPattern.Input.STATUS;
import static dev.oneread.local.catalogue.AccessPattern.Input.WORKSPACE;
import static dev.oneread.local.catalogue.AccessPattern.Tool.CONSOLE;
import static dev.oneread.local.catalogue.AccessPattern.Tool.EXPR;

import dev.oneread.expr.KeyCondition.SortOperator;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.local.catalogue.AccessPattern.KeyRange;
import dev.oneread.local.catalogue.AccessPattern.Route;
import dev.oneread.local.catalogue.AccessPattern.Tool;
import dev.oneread.model.CreationToken;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspacePatch;
import dev.oneread.store.stats.ReportRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The catalogue of access patterns: every route's one declaration, in the order {@code expr}, the console and the
 * README list them (the everyday reads first). What else lists them is produced from it ({@code expr}'s pattern
 * subcommands, the console's builder and budgets, the README's table) or checked against it (openapi.yaml and
 * template.yaml, by CatalogueTest).
 *
 * <pre>{@code AccessPatterns.ofFunction("ListProjects").orElseThrow().route()  // GET /workspaces/{workspaceId}/projects}</pre>
 */
public final class AccessPatterns {
    private static final String WS = "/workspaces/{workspaceId}";
    private static final String PROJECT_PATH = WS + "/projects/{projectId}";

    private static final List<AccessPattern> ALL = List.of(
            new AccessPattern(
                    "list-projects",
                    new Route("GET", WS + "/projects", ""),
                    "ListProjects",
                    false,
                    "1 Query (N for a hot tenant, 2N at most)",
                    Set.of(WORKSPACE),
                    Set.of(EXPR, CONSOLE),
                    s -> s.requests().listProjects(s.workspace(), s.limit(), Optional.empty()),
                    s -> new KeyRange(
                            KeyCodec.workspacePartition(s.workspace()),
                            SortOperator.BEGINS_WITH,
                            KeyCodec.projectSortKeyPrefix(),
                            null,
                            true)),
            new AccessPattern(
                    "workspace-collection",
                    new Route("GET", WS + "/collection", ""),
                    "GetWorkspaceCollection",
                    false,
                    "1 Query (N for a hot tenant, 2N at most)",
                    Set.of(WORKSPACE),
                    Set.of(EXPR, CONSOLE),
                    s -> s.requests().workspaceCollection(s.workspace(), s.limit(), Optional.empty()),
                    s -> {
                        KeyCodec.SortKeyRange range = KeyCodec.collectionSortKeyRange();
                        return new KeyRange(
                                KeyCodec.workspacePartition(s.workspace()),
                                SortOperator.BETWEEN,
                                range.low(),
                                range.high(),
                                false);
                    }),
            new AccessPattern(
                    "project",
                    new Route("GET", PROJECT_PATH, ""),
                    "GetProject",
                    false,
                    "1 GetItem",
                    Set.of(WORKSPACE, PROJECT),
                    Set.of(CONSOLE),
                    s -> s.requests().getProject(s.projectKey(), false),
                    s -> itemKey(s.projectKey())),
            new AccessPattern(
                    "workspace",
                    new Route("GET", WS, ""),
                    "GetWorkspace",
                    false,
                    "1 GetItem",
                    Set.of(WORKSPACE),
                    Set.of(CONSOLE),
                    s -> s.requests().getWorkspace(s.workspace()),
                    s -> itemKey(KeyCodec.workspaceKey(s.workspace()))),
            new AccessPattern(
                    "by-status",
                    new Route("GET", "/projects", "?status="),
                    "ListProjectsByStatus",
                    true,
                    "S Queries on GSI1 (2S at most)",
                    Set.of(STATUS, INDEX_SHARD),
                    Set.of(EXPR),
                    s -> s.requests().projectsByStatusIn(statusPartition(s), s.limit(), Optional.empty()),
                    s -> new KeyRange(
                            statusPartition(s), SortOperator.BEGINS_WITH, KeyCodec.projectSortKeyPrefix(), null, true)),
            new AccessPattern(
                    "workspaces",
                    new Route("GET", "/workspaces", ""),
                    "ListWorkspaces",
                    true,
                    "S Queries on GSI1 (2S at most)",
                    Set.of(INDEX_SHARD),
                    Set.of(EXPR),
                    s -> s.requests().workspacesIn(registryPartition(s), s.limit(), Optional.empty()),
                    s -> new KeyRange(registryPartition(s), null, null, null, false)),
            new AccessPattern(
                    "hot-tenant-report",
                    new Route("GET", "/reports/hot-tenants", ""),
                    "GetHotTenantReport",
                    true,
                    "1 Query",
                    Set.of(),
                    Set.of(),
                    s -> new ReportRequests(s.table()).page(s.limit(), Optional.empty()),
                    s -> new KeyRange(KeyCodec.hotTenantReportPartition(), null, null, null, false)),
            new AccessPattern(
                    "create-workspace",
                    new Route("POST", "/workspaces", ""),
                    "CreateWorkspace",
                    true,
                    "1 PutItem",
                    Set.of(WORKSPACE),
                    Set.of(),
                    s -> s.requests()
                            .createWorkspace(
                                    new Workspace(s.workspace(), "Sample", Map.of(), s.now(), s.now(), 1),
                                    CreationToken.random()),
                    s -> itemKey(KeyCodec.workspaceKey(s.workspace()))),
            new AccessPattern(
                    "update-workspace",
                    new Route("PATCH", WS, ""),
                    "UpdateWorkspace",
                    false,
                    "1 UpdateItem",
                    Set.of(WORKSPACE),
                    Set.of(),
                    s -> s.requests()
                            .updateWorkspace(
                                    s.workspace(),
                                    new WorkspacePatch("Renamed", null),
                                    ExpectedVersion.exactly(1),
                                    s.now()),
                    s -> itemKey(KeyCodec.workspaceKey(s.workspace()))),
            new AccessPattern(
                    "delete-workspace",
                    new Route("DELETE", WS, ""),
                    "DeleteWorkspace",
                    true,
                    "1 UpdateItem + 1 SQS SendMessage (the purge)",
                    Set.of(WORKSPACE),
                    Set.of(),
                    s -> s.requests()
                            .deleteWorkspace(
                                    s.workspace(),
                                    ExpectedVersion.exactly(1),
                                    s.project().value(),
                                    s.now()),
                    s -> itemKey(KeyCodec.workspaceKey(s.workspace()))),
            new AccessPattern(
                    "create-project",
                    new Route("POST", WS + "/projects", ""),
                    "CreateProject",
                    false,
                    "1 GetItem + 1 PutItem",
                    Set.of(WORKSPACE),
                    Set.of(),
                    s -> s.requests()
                            .createProject(
                                    new Project(
                                            s.project(),
                                            s.workspace(),
                                            "Sample",
                                            null,
                                            s.status(),
                                            s.now(),
                                            s.now(),
                                            1),
                                    CreationToken.random()),
                    s -> itemKey(s.projectKey())),
            new AccessPattern(
                    "update-project",
                    new Route("PATCH", PROJECT_PATH, ""),
                    "UpdateProject",
                    false,
                    "1 UpdateItem",
                    Set.of(WORKSPACE, PROJECT),
                    Set.of(),
                    s -> s.requests()
                            .updateProject(
                                    s.projectKey(),
                                    new ProjectPatch("Renamed", null, false, null),
                                    ExpectedVersion.exactly(1),
                                    s.now()),
                    s -> itemKey(s.projectKey())),
            new AccessPattern(
                    "delete-project",
                    new Route("DELETE", PROJECT_PATH, ""),
                    "DeleteProject",
                    false,
                    "1 DeleteItem",
                    Set.of(WORKSPACE, PROJECT),
                    Set.of(),
                    s -> s.requests().deleteProject(s.projectKey(), ExpectedVersion.exactly(1)),
                    s -> itemKey(s.projectKey())));

    private AccessPatterns() {}

    /** Every access pattern, in catalogue order. */
    public static List<AccessPattern> all() {
        return ALL;
    }

    /** The patterns the local runner offers in {@code tool}, in catalogue order. */
    public static List<AccessPattern> offeredIn(Tool tool) {
        return ALL.stream().filter(p -> p.tools().contains(tool)).toList();
    }

    /** The pattern {@code expr} and the console call {@code name}. */
    public static Optional<AccessPattern> named(String name) {
        return ALL.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The pattern of the function with this template logical id. */
    public static Optional<AccessPattern> ofFunction(String function) {
        return ALL.stream().filter(p -> p.function().equals(function)).findFirst();
    }

    /** The README's access-pattern table, as markdown lines: a test holds the README to it. */
    public static List<String> markdownTable() {
        List<String> lines = new ArrayList<>(List.of("| route | function | DynamoDB calls |", "|---|---|---|"));
        ALL.forEach(p -> lines.add("| `" + p.route() + "`" + (p.operators() ? " (operators)" : "") + " | `"
                + p.directory() + "` | " + p.calls() + " |"));
        return lines;
    }

    private static KeyRange itemKey(PrimaryKey key) {
        return new KeyRange(key.partition(), SortOperator.EQ, key.sort(), null, false);
    }

    private static String statusPartition(Sample s) {
        return s.plan().index().statusPartitions(s.status().name()).get(s.shard() - 1);
    }

    private static String registryPartition(Sample s) {
        return s.plan().index().registryPartitions().get(s.shard() - 1);
    }
}
