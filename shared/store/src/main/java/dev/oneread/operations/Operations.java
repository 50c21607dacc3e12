package dev.oneread.operations;

import java.util.List;
import java.util.Optional;

/**
 * The list of operations: every route's one declaration (and, in {@link #jobs()}, every job's), in the order {@code expr}, the console and the README list
 * them (the everyday reads first). What else lists them is produced from it (the README's table and the runbook's
 * route list, {@code expr}'s subcommands, the console's builder and budgets, each function's budget and priming
 * request) or checked against it (template.yaml's HttpApi events and openapi.yaml's paths, by CatalogueTest).
 *
 * <pre>{@code Operations.ofFunction("ListProjects").orElseThrow().descriptor().route()  // GET /workspaces/{workspaceId}/projects}</pre>
 */
public final class Operations {
    private static final List<Operation> ALL = List.of(
            ListProjectsOperation.INSTANCE,
            GetWorkspaceCollectionOperation.INSTANCE,
            GetProjectOperation.INSTANCE,
            GetWorkspaceOperation.INSTANCE,
            ListProjectsByStatusOperation.INSTANCE,
            ListWorkspacesOperation.INSTANCE,
            GetHotTenantReportOperation.INSTANCE,
            CreateWorkspaceOperation.INSTANCE,
            UpdateWorkspaceOperation.INSTANCE,
            DeleteWorkspaceOperation.INSTANCE,
            CreateProjectOperation.INSTANCE,
            UpdateProjectOperation.INSTANCE,
            DeleteProjectOperation.INSTANCE);

    private static final List<JobOperation> JOBS = List.of(
            PlanJobsOperation.INSTANCE,
            RunJobOperation.INSTANCE,
            MigrateHotTenantOperation.INSTANCE,
            BackfillIndexOperation.INSTANCE);

    private Operations() {}

    /** Every job's operation, in the README's order: one per job function. */
    public static List<JobOperation> jobs() {
        return JOBS;
    }

    /** Every operation, in catalogue order. */
    public static List<Operation> all() {
        return ALL;
    }

    /** The operation {@code expr} and the console call {@code name}. */
    public static Optional<Operation> named(String name) {
        return ALL.stream().filter(o -> o.descriptor().name().equals(name)).findFirst();
    }

    /** The operation of the function with this template logical id. */
    public static Optional<Operation> ofFunction(String function) {
        return ALL.stream()
                .filter(o -> o.descriptor().function().equals(function))
                .findFirst();
    }

    /** The operation of the route with this route key ({@code GET /projects}, as API Gateway sends it). */
    public static Optional<Operation> ofRoute(String routeKey) {
        return ALL.stream()
                .filter(o -> o.descriptor().route().key().equals(routeKey))
                .findFirst();
    }
}
