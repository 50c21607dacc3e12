package dev.oneread.functions.planjobs;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.jobs.BatchItemFailures;
import dev.oneread.jobs.JobPlanner;
import dev.oneread.jobs.SqsClients;
import dev.oneread.jobs.TaskQueue;
import dev.oneread.json.Json;
import dev.oneread.keys.Ulid;
import dev.oneread.model.ListPosition;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.runtime.JobFrame;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.QueryPool;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A job, started by its schedule ({@code {"job": "stats"}}, the schedule's input): plans one run, a task per
 * workspace (per shard of a hot tenant's stats) on the job queue (QUEUE_URL). When its time runs low it stops at a
 * page boundary and sends its continuation, {@code {"job", "runId", "resumeAfter"}}, to the plan queue
 * (PLAN_QUEUE_URL), whose event source mapping invokes it again to send the rest of the same run. Invoked by hand,
 * the result says where it stopped too. A run whose pass is done sends its recheck to the plan queue,
 * {@code {"job", "runId", "recheck": true}}, delayed by {@link JobPlanner#RECHECK_DELAY}: the registry is an index
 * that trails the table, and the recheck gives the run's task to the workspaces created just before it, which the
 * pass may not have seen.
 */
public final class PlanJobsFunction implements RequestStreamHandler {
    private final JobPlanner planner;
    private final TaskQueue planQueue;
    private final Ulid runIds = Ulid.generator();

    /** Used by the Lambda runtime: the shared clients and the function's environment. */
    public PlanJobsFunction() {
        this(FunctionConfig.fromEnvironment("PlanJobs"));
    }

    private PlanJobsFunction(FunctionConfig config) {
        this(
                DynamoDbClients.shared(dev.oneread.store.calls.CallPath.JOB),
                QueryPool.shared(),
                SqsClients.fromEnvironment(config.environment()),
                config.environment().get("QUEUE_URL"),
                config.environment().get("PLAN_QUEUE_URL"),
                config);
    }

    /** @param planQueueUrl where a run that ran out of time sends its continuation; null for none (return it) */
    public PlanJobsFunction(
            DynamoDbClient client,
            QueryPool pool,
            SqsClient sqs,
            String queueUrl,
            String planQueueUrl,
            FunctionConfig config) {
        if (queueUrl == null || queueUrl.isBlank()) {
            // Fail at init, not by sending tasks nowhere: the template sets QUEUE_URL to the job queue.
            throw new IllegalStateException("QUEUE_URL is not set: the planner has no job queue to send to");
        }
        this.planner = new JobPlanner(
                new ControlPlaneStore(client, pool, config.tableName(), config.shardPlan()),
                new TaskQueue(sqs, queueUrl),
                config.shardPlan());
        this.planQueue = planQueueUrl == null || planQueueUrl.isBlank() ? null : new TaskQueue(sqs, planQueueUrl);
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JobFrame.run(input, output, context, (event, tally, log) -> {
            if (event.get("Records") instanceof List<?> records) {
                return continuations(records, tally, log);
            }
            return plan(event, tally, log);
        });
    }

    /** The plan queue's batch: each record a continuation; the ids of those that failed come back to the queue. */
    private Map<String, Object> continuations(
            List<?> records, CallTally tally, java.util.function.Consumer<Map<String, Object>> log) {
        List<String> failed = new ArrayList<>();
        for (Object record : records) {
            Map<?, ?> message = (Map<?, ?>) record;
            try {
                plan(Json.readObject(String.valueOf(message.get("body"))), tally, log);
            } catch (RuntimeException e) {
                failed.add(String.valueOf(message.get("messageId")));
                log.accept(Map.of(
                        "job", "PlanJobs", "ok", false, "error", e.getClass().getSimpleName()));
            }
        }
        return new LinkedHashMap<>(BatchItemFailures.of(failed).toResponse());
    }

    private Map<String, Object> plan(
            Map<String, Object> event, CallTally tally, java.util.function.Consumer<Map<String, Object>> log) {
        String job = String.valueOf(event.get("job"));
        String runId = event.get("runId") instanceof String given
                ? given
                : runIds.next().value();
        boolean recheck = Boolean.TRUE.equals(event.get("recheck"));
        Optional<Instant> createdSince =
                recheck ? Optional.of(JobPlanner.recheckSince(Ulid.timeOf(runId))) : Optional.empty();
        JobPlanner.Plan plan = planner.plan(job, runId, position(event.get("resumeAfter")), createdSince, tally);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("job", job);
        result.put("runId", runId);
        if (recheck) {
            result.put("recheck", true);
        }
        result.put("tasks", plan.tasks());
        result.put("sendMessageBatchCalls", plan.sendCalls());
        result.put("registryPages", plan.pages());
        result.put("done", plan.done());
        result.put("resumeAfter", plan.resumeAfter().map(PlanJobsFunction::json).orElse(null));
        if (!plan.done() && planQueue != null) {
            Map<String, Object> continuation = new LinkedHashMap<>();
            continuation.put("job", job);
            continuation.put("runId", runId);
            continuation.put("resumeAfter", result.get("resumeAfter"));
            if (recheck) {
                continuation.put("recheck", true);
            }
            planQueue.send(continuation);
            result.put("continued", true);
        } else if (plan.done() && !recheck && planQueue != null) {
            Map<String, Object> recheckMessage = new LinkedHashMap<>();
            recheckMessage.put("job", job);
            recheckMessage.put("runId", runId);
            recheckMessage.put("recheck", true);
            planQueue.sendDelayed(recheckMessage, JobPlanner.RECHECK_DELAY);
            result.put("recheckSent", true);
        }
        log.accept(result);
        return result;
    }

    private static Map<String, Object> json(ListPosition position) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("after", position.afterSortKey());
        out.put("exhausted", new ArrayList<>(position.exhausted()));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Optional<ListPosition> position(Object json) {
        if (!(json instanceof Map<?, ?> map)) {
            return Optional.empty();
        }
        TreeSet<Integer> exhausted = new TreeSet<>();
        for (Object i : (List<Object>) map.get("exhausted")) {
            exhausted.add(((Number) i).intValue());
        }
        return Optional.of(new ListPosition(String.valueOf(map.get("after")), exhausted));
    }
}
