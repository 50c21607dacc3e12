package dev.oneread.operations;

import java.util.List;

/**
 * The plan job ({@code PlanJobs}, shared/jobs' JobPlanner): pages through the index's registry with {@link
 * ListWorkspacesOperation}'s queries and puts one task per workspace (and shard) on the job queue.
 *
 * <pre>{@code PlanJobsOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class PlanJobsOperation extends JobOperation {
    public static final PlanJobsOperation INSTANCE = new PlanJobsOperation();

    private PlanJobsOperation() {
        super(new JobDescriptor(
                "plan",
                "PlanJobs",
                List.of("SQS", "ScheduleV2"),
                "a `ScheduleV2` schedule, `PlanQueue`",
                "one task per workspace (and shard) on `JobQueue`, from the index's registry",
                List.of("JobPlanner (shared/jobs)", "ListWorkspacesOperation")));
    }
}
