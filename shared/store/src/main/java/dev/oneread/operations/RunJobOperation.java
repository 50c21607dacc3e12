package dev.oneread.operations;

/**
 * The stats and purge jobs ({@code RunJob}): a task of the job queue counts one workspace's projects and feeds the
 * hot-tenant report (StatsRequests, ReportRequests), or purges a deleted workspace (PurgeRequests).
 *
 * <pre>{@code RunJobOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class RunJobOperation extends JobOperation {
    public static final RunJobOperation INSTANCE = new RunJobOperation();

    private RunJobOperation() {
        super(JobDescriptor.builder("stats, purge")
                .function("RunJob")
                .events("SQS")
                .startedBy("`JobQueue`")
                .does("counts a workspace's projects and feeds the hot-tenant report; purges a deleted workspace")
                .requests("StatsRequests", "ReportRequests", "PurgeRequests")
                .build());
    }
}
