package dev.oneread.jobs;

import dev.oneread.model.ListPosition;
import dev.oneread.model.Page;
import dev.oneread.model.Workspace;
import dev.oneread.store.CallTally;
import dev.oneread.store.ControlPlaneStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The planner of a job run: enumerates every workspace through the registry of the cross-workspace index (its
 * shards queried at once, page by page; no Scan) and sends one task per workspace to the job queue. When time runs
 * low it stops at a page boundary and returns where it stopped; a continuation with that position sends the rest.
 * A task sent twice (a continuation after a page was sent but not recorded) is harmless: workers apply a task at
 * most once per run.
 *
 * <pre>{@code Plan plan = planner.plan("stats", runId, Optional.empty(), tally);}</pre>
 */
public final class JobPlanner {
    /** Workspaces per registry page: the index's Query page limit. */
    static final int PAGE = 100;
    /** Start no page with less than this left: a page is S index queries and 10 SendMessageBatch calls. */
    static final Duration STOP_MARGIN = Duration.ofSeconds(5);

    private final ControlPlaneStore store;
    private final TaskQueue queue;

    public JobPlanner(ControlPlaneStore store, TaskQueue queue) {
        this.store = store;
        this.queue = queue;
    }

    /** What one planner run did, and where a continuation starts (empty when every workspace has its task). */
    public record Plan(int tasks, int sendCalls, int pages, Optional<ListPosition> resumeAfter) {
        public boolean done() {
            return resumeAfter.isEmpty();
        }
    }

    public Plan plan(String job, String runId, Optional<ListPosition> after, CallTally tally) {
        int tasks = 0;
        int sendCalls = 0;
        int pages = 0;
        Optional<ListPosition> position = after;
        do {
            if (tally.remaining().compareTo(STOP_MARGIN) <= 0 && pages > 0) {
                return new Plan(tasks, sendCalls, pages, position);
            }
            Page<Workspace> page = store.listWorkspaces(PAGE, position, tally);
            pages++;
            List<JobTask> batch = new ArrayList<>();
            page.items().forEach(w -> batch.add(new JobTask(job, w.id(), runId)));
            sendCalls += queue.send(batch);
            tasks += batch.size();
            position = page.next();
        } while (position.isPresent());
        return new Plan(tasks, sendCalls, pages, Optional.empty());
    }
}
