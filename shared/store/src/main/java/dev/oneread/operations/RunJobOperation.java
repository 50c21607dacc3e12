package dev.oneread.operations;

import java.util.List;

/**
 * The stats and purge jobs ({@code RunJob}): a task of the job queue counts one workspace's projects and feeds the
 * hot-tenant report (StatsRequests, ReportRequests), or purges a deleted workspace (PurgeRequests).
 *
 * <pre>{@code RunJobOperation.INSTANCE.descriptor().startedBy()}</pre>
 */
public final class RunJobOperation extends JobOperation {
    public static final RunJobOperation INSTANCE = new RunJobOperation();

    private RunJobOperation() {
        super(new JobDescriptor(
                "stats, purge",
                "RunJob",
                List.of("SQS"),
                "`JobQueue`",
                "counts a workspace's projects and feeds the hot-tenant report; purges a deleted workspace",
                List.of("StatsRequests", "ReportRequests", "PurgeRequests")));
    }
}
