package dev.oneread.jobs;

import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ListPosition;
import dev.oneread.model.Page;
import dev.oneread.model.Workspace;
import dev.oneread.store.CallTally;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.JobPace;
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
 * <pre>{@code Plan plan = planner.plan("stats", runId, Optional.empty(), tally);}</pre>
 */
public final class JobPlanner {
    /** Workspaces per registry page: the index's Query page limit. */
    static final int PAGE = 100;

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

    public Plan plan(String job, String runId, Optional<ListPosition> after, CallTally tally) {
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
