package dev.oneread.jobs;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ListPosition;
import dev.oneread.model.Page;
import dev.oneread.model.Workspace;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.JobPace;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The planner of a job run: enumerates every workspace through the registry of the cross-workspace index (its
 * shards queried at once, page by page; no Scan) and sends one task per workspace, or per shard for a sharded
 * tenant's stats, to the job queue. When time runs
 * low it stops at a page boundary and returns where it stopped; a continuation with that position sends the rest.
 * A task sent twice (a continuation after a page was sent but not recorded) is harmless: workers apply a task at
 * most once per run.
 *
 * <p>The registry is a global secondary index, which DynamoDB updates within about a second of the write: a pass
 * misses a workspace created just before it read that workspace's shard. So once a run's pass is done, a recheck
 * ({@link #RECHECK_DELAY} later, on the plan queue) lists the registry again and sends the run's task to every
 * workspace created since {@link #RECHECK_WINDOW} before the run began ({@link #recheckSince}); the ones the first pass
 * did see get their task twice, which is applied once.
 *
 * <pre>{@code Plan plan = planner.plan("stats", runId, Optional.empty(), Optional.empty(), tally);}</pre>
 */
public final class JobPlanner {
    /** Workspaces per registry page: the index's Query page limit. */
    static final int PAGE = 100;

    /**
     * How long after a run's pass its recheck reads the registry: twice the index's lag under normal conditions
     * (DynamoDB propagates a write to a global secondary index within a second).
     */
    public static final Duration RECHECK_DELAY = Duration.ofSeconds(2);

    /**
     * How far before the run's start the recheck looks: a workspace's {@code createdAt} is stamped before its put,
     * which lands within CreateWorkspace's timeout (10 s, the template's Globals), and the index shows it within
     * {@link #RECHECK_DELAY} after that.
     */
    public static final Duration RECHECK_WINDOW = Duration.ofSeconds(10).plus(RECHECK_DELAY);

    private final ControlPlaneStore store;
    private final TaskQueue queue;
    private final ShardPlan shardPlan;

    public JobPlanner(ControlPlaneStore store, TaskQueue queue, ShardPlan shardPlan) {
        this.store = store;
        this.queue = queue;
        this.shardPlan = shardPlan;
    }

    /** What one planner run did, and where a continuation starts (empty when every workspace has its task). */
    public record Plan(int tasks, int sendCalls, int pages, Optional<ListPosition> resumeAfter) {
        public boolean done() {
            return resumeAfter.isEmpty();
        }
    }

    /**
     * A sharded tenant's stats get one task per shard, so that no single worker walks a hot tenant's whole
     * collection; a tenant still moving into its shards gets one task over every partition it may use. Every other
     * task (a purge, an unsharded tenant's stats) is over the whole workspace, shard 0. The worker admits only tasks
     * this would send ({@link TaskAdmission}).
     */
    static List<JobTask> tasksFor(ShardPlan shardPlan, String job, WorkspaceId workspaceId, String runId) {
        int shards = shardPlan.shardCount(workspaceId);
        if (!JobTask.STATS.equals(job) || shards == 0 || shardPlan.isMigrating(workspaceId)) {
            return List.of(new JobTask(job, workspaceId, runId));
        }
        List<JobTask> tasks = new ArrayList<>();
        for (int shard = 1; shard <= shards; shard++) {
            tasks.add(new JobTask(job, workspaceId, shard, runId));
        }
        return tasks;
    }

    /** The oldest creation time a recheck of the run that started at {@code runStart} sends a task for. */
    public static Instant recheckSince(Instant runStart) {
        return runStart.minus(RECHECK_WINDOW);
    }

    /**
     * Plans a run from {@code after} (or the start): a task for every workspace listed, or with {@code createdSince}
     * (a recheck) only for those created at or after it.
     */
    public Plan plan(
            String job, String runId, Optional<ListPosition> after, Optional<Instant> createdSince, CallTally tally) {
        int tasks = 0;
        int sendCalls = 0;
        int pages = 0;
        Optional<ListPosition> position = after;
        // Tasks wait here until ten fill a SendMessageBatch: a run of T tasks is ceil(T/10) calls, whatever the
        // pages hold. Before a stop the rest go out, so a continuation's position has every task before it sent.
        List<JobTask> pending = new ArrayList<>();
        do {
            // The jobs' one time check (a page is S index queries and 10 SendMessageBatch calls).
            if (!JobPace.hasTime(tally) && pages > 0) {
                sendCalls += queue.send(pending);
                return new Plan(tasks, sendCalls, pages, position);
            }
            Page<Workspace> page = store.listWorkspaces(PAGE, position, tally);
            pages++;
            for (Workspace workspace : page.items()) {
                if (createdSince.isPresent() && workspace.createdAt().isBefore(createdSince.get())) {
                    continue;
                }
                List<JobTask> more = tasksFor(shardPlan, job, workspace.id(), runId);
                pending.addAll(more);
                tasks += more.size();
            }
            int full = pending.size() - pending.size() % TaskQueue.BATCH;
            sendCalls += queue.send(pending.subList(0, full));
            pending = new ArrayList<>(pending.subList(full, pending.size()));
            position = page.next();
        } while (position.isPresent());
        sendCalls += queue.send(pending);
        return new Plan(tasks, sendCalls, pages, Optional.empty());
    }
}
