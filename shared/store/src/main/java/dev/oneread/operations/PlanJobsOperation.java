package dev.oneread.operations;

/**
 * The plan job ({@code PlanJobs}, shared/jobs' JobPlanner): pages through the index's registry with {@link
 * ListWorkspacesOperation}'s queries (its descriptor's {@code reads}: it builds no DynamoDB request of its own) and
 * puts one task per workspace (and shard) on the job queue (an SQS request, built in shared/jobs, the module that
 * holds the SQS client).
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
                .reads(ListWorkspacesOperation.INSTANCE)
                .build());
    }
}
