package dev.oneread.operations;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ProjectStatus;
import java.time.Instant;

/**
 * The inputs an operation's sample request is built from: what {@code expr}'s flags or a console form give, and
 * fixed values for the rest, so that every operation has a request to print or check.
 *
 * <pre>{@code Operations.named("list-projects").orElseThrow().sampleRequest(Sample.of("oneread").withLimit(50))}</pre>
 *
 * @param shard which index shard's query (1-based) a pattern of the cross-workspace index sends
 */
public record Sample(
        String table,
        ShardPlan plan,
        WorkspaceId workspace,
        ProjectId project,
        ProjectStatus status,
        int limit,
        int shard,
        Instant now) {
    /** The defaults: the workspace {@code acme}, one project of it, a page of 20, the index's first shard. */
    public static Sample of(String table) {
        return new Sample(
                table,
                ShardPlan.none(),
                WorkspaceId.of("acme"),
                ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                ProjectStatus.ACTIVE,
                20,
                1,
                Instant.parse("2026-01-01T00:00:00Z"));
    }

    public Sample withPlan(ShardPlan plan) {
        return new Sample(table, plan, workspace, project, status, limit, shard, now);
    }

    public Sample withWorkspace(WorkspaceId workspace) {
        return new Sample(table, plan, workspace, project, status, limit, shard, now);
    }

    public Sample withProject(ProjectId project) {
        return new Sample(table, plan, workspace, project, status, limit, shard, now);
    }

    public Sample withStatus(ProjectStatus status) {
        return new Sample(table, plan, workspace, project, status, limit, shard, now);
    }

    public Sample withLimit(int limit) {
        return new Sample(table, plan, workspace, project, status, limit, shard, now);
    }

    public Sample withShard(int shard) {
        return new Sample(table, plan, workspace, project, status, limit, shard, now);
    }

    /** The table and plan the operations build their requests against. */
    public OperationContext context() {
        return OperationContext.of(table, plan);
    }

    /** Where the project lives now (its shard, for a hot tenant). */
    public PrimaryKey projectKey() {
        return plan.locate(workspace, project).home();
    }
}
