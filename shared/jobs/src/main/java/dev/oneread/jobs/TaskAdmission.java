package dev.oneread.jobs;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.Ulid;
import java.time.Duration;
import java.time.Instant;

/**
 * What the worker checks of a task before it runs it: that the planner (or a DELETE) could have sent it. A task's
 * fields come from a queue message, so they are input like any other. A shard outside the plan would write a stats
 * part that no read sums, or count a partition twice; a run id from the future would be stamped on the workspace,
 * and every real run after it refused as older until that time came: the counts, and with them the project quota,
 * frozen.
 *
 * <pre>{@code new TaskAdmission(plan).check(task, clock.instant());}</pre>
 *
 * @param plan the deployment's shard plan, the one the planner splits a run's tasks by
 */
record TaskAdmission(ShardPlan plan) {
    /**
     * How far a run id's time may lie ahead of the worker's clock. Run ids are made by the planner and by
     * DeleteWorkspace on other Lambda hosts, whose clocks Amazon Time Sync keeps within milliseconds of each other,
     * and a task is sent after its run id is made; a minute covers any real skew (a local machine's clock included)
     * many times over, while a forged run can freeze the counts for no more than that minute.
     */
    static final Duration CLOCK_SKEW = Duration.ofSeconds(60);

    /** @throws RefusedTaskException when the task is not one this deployment sends */
    void check(JobTask task, Instant now) {
        if (!JobPlanner.tasksFor(plan, task.job(), task.workspaceId(), task.runId())
                .contains(task.asPlanned())) {
            throw new RefusedTaskException("shard " + task.shard() + " is not a shard the plan gives a " + task.job()
                    + " task of this workspace (" + plan.shardCount(task.workspaceId()) + " shards)");
        }
        int partitions = task.shard() == 0
                ? plan.projectPartitions(task.workspaceId()).partitions().size()
                : 1;
        if (task.from().partition() >= partitions) {
            throw new RefusedTaskException(
                    "a continuation from partition " + task.from().partition() + " of a task" + " over " + partitions);
        }
        Instant made = Ulid.timeOf(task.runId());
        if (made.isAfter(now.plus(CLOCK_SKEW))) {
            throw new RefusedTaskException("the run id's time lies " + Duration.between(now, made)
                    + " in the future, more than the " + CLOCK_SKEW + " of clock skew allowed");
        }
    }
}
