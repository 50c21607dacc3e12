package dev.oneread.operations;

/**
 * The plan job ({@code PlanJobs}, shared/jobs' JobPlanner): pages through the index's registry with {@link
 * ListWorkspacesOperation}'s queries and puts one task per workspace (and shard) on the job queue.
 *
 * <pre>{@code PlanJobsOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class PlanJobsOperation extends JobOperation {
    public static final PlanJobsOperation INSTANCE = new PlanJobsOperation();

    private PlanJobsOperation() {
        super(JobDescriptor.builder("plan")
                .function("PlanJobs")
                .events("SQS", "ScheduleV2")
                .startedBy("a `ScheduleV2` schedule, `PlanQueue`")
                .does("one task per workspace (and shard) on `JobQueue`, from the index's registry")
                .requests("JobPlanner (shared/jobs)", "ListWorkspacesOperation")
                .build());
    }
}
