package dev.oneread.jobs;

import dev.oneread.keys.ShardPlan;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.purge.WorkspacePurge;
import dev.oneread.store.stats.StatsRollup;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The worker: takes a batch of tasks from the job queue (an SQS event) and runs each one on its own. A task that
 * fails is reported by its message id and left on the queue to come back; its batch-mates are done and deleted. A
 * message that is not a task fails every time, and the queue's redrive policy moves it to the dead-letter queue.
 *
 * <pre>{@code BatchItemFailures failures = worker.run(sqsEvent, tally, log);}</pre>
 */
public final class JobWorker {
    private final StatsRollup stats;
    private final WorkspacePurge purge;
    private final TaskQueue continuations;
    private final Clock clock;
    private final TaskAdmission admission;

    /**
     * @param continuations where a task that ran out of time sends itself again, to go on where it stopped; null
     *                      for none (the task then fails, and its message comes back)
     * @param plan          the deployment's shard plan: a task with a shard it does not give is refused
     */
    public JobWorker(StatsRollup stats, WorkspacePurge purge, TaskQueue continuations, Clock clock, ShardPlan plan) {
        this.stats = stats;
        this.purge = purge;
        this.continuations = continuations;
        this.clock = clock;
        this.admission = new TaskAdmission(plan);
    }

    /** Runs every record of {@code sqsEvent}; returns the ids of those that failed. One log line per task. */
    @SuppressWarnings("unchecked")
    public BatchItemFailures run(Map<String, Object> sqsEvent, CallTally tally, Consumer<Map<String, Object>> log) {
        List<String> failed = new ArrayList<>();
        List<Map<String, Object>> records =
                sqsEvent.get("Records") instanceof List<?> list ? (List<Map<String, Object>>) list : List.of();
        for (Map<String, Object> record : records) {
            String messageId = String.valueOf(record.get("messageId"));
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("job", "RunJob");
            line.put("messageId", messageId);
            int callsBefore = tally.calls();
            try {
                runTask(JobTask.fromJson(String.valueOf(record.get("body"))), tally, line);
                line.put("calls", tally.calls() - callsBefore);
                line.put("ok", true);
            } catch (RuntimeException e) {
                failed.add(messageId);
                line.put("ok", false);
                line.put("error", e.getClass().getSimpleName());
                if (e instanceof RefusedTaskException) {
                    line.put("reason", e.getMessage());
                }
            }
            log.accept(line);
        }
        return BatchItemFailures.of(failed);
    }

    /** One task, admitted first; what it did goes into its log {@code line}. */
    private void runTask(JobTask task, CallTally tally, Map<String, Object> line) {
        line.put("task", task.job());
        line.put("workspaceId", task.workspaceId().value());
        if (task.shard() > 0) {
            line.put("shard", task.shard());
        }
        line.put("runId", task.runId());
        admission.check(task, clock.instant());
        if (JobTask.PURGE.equals(task.job())) {
            runPurge(task, tally, line);
        } else {
            runStats(task, tally, line);
        }
    }

    private void runPurge(JobTask task, CallTally tally, Map<String, Object> line) {
        WorkspacePurge.Outcome outcome = purge.run(task.workspaceId(), task.runId(), clock.instant(), tally);
        line.put("deleted", outcome.deleted());
        line.put("state", outcome.state());
        if (!outcome.finished()) {
            // Its fence has not passed, or its pace is in debt: the queue holds the task until then.
            continueLater(task, outcome.continueAfter());
        }
    }

    private void runStats(JobTask task, CallTally tally, Map<String, Object> line) {
        StatsRollup.Outcome outcome =
                stats.run(task.workspaceId(), task.shard(), task.runId(), clock.instant(), tally, task.from());
        line.put("pages", outcome.pages());
        line.put("applied", outcome.applied());
        line.put("counts", outcome.counts());
        if (!outcome.finished()) {
            // Out of time between pages: the rest goes on in a continuation that carries where it stopped and what
            // it counted, instead of the task dying at its timeout and starting over.
            continueLater(task.continuedFrom(outcome.continueFrom().get()), outcome.continueAfter());
            line.put("state", "continues");
        }
    }

    /** Sends a task that ran out of time to the queue, to go on in another invocation after {@code delay}. */
    private void continueLater(JobTask task, Duration delay) {
        if (continuations == null) {
            throw new IllegalStateException("the task ran out of time, and has no queue to go on");
        }
        if (delay.isZero()) {
            continuations.send(List.of(task));
        } else {
            continuations.sendDelayed(task, delay);
        }
    }
}
