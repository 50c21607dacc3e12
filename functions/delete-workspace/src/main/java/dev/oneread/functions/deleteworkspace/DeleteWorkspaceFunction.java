package dev.oneread.functions.deleteworkspace;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.jobs.JobTask;
import dev.oneread.jobs.SqsClients;
import dev.oneread.jobs.TaskQueue;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.operations.DeleteWorkspaceOperation;
import dev.oneread.priming.PrimingRequest;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.purge.Purge;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * {@code DELETE /workspaces/{workspaceId}}, for operators: one UpdateItem marks the workspace purging (from then on
 * it and its projects' creates are refused, and the workspace reads as 404), then the purge task goes to the job
 * queue, delayed until the purge fence has passed. 202 Accepted: the items go when the task runs. An optional
 * {@code If-Match} deletes only that version (412 otherwise). A second DELETE is answered as the first and sends
 * the task again, which is harmless (the purge is idempotent) and recovers a first DELETE whose send failed.
 */
public final class DeleteWorkspaceFunction extends HttpApiFunction {
    private final ControlPlaneStore store;
    private final TaskQueue queue;
    private final Duration fence;
    private final Clock clock;
    private final Ulid runIds = Ulid.generator();

    /** Used by the Lambda runtime: the shared clients and the function's environment. */
    public DeleteWorkspaceFunction() {
        this(FunctionConfig.fromEnvironment("DeleteWorkspace"));
    }

    private DeleteWorkspaceFunction(FunctionConfig config) {
        this(
                DynamoDbClients.shared(),
                SqsClients.fromEnvironment(config.environment()),
                config.environment().get("QUEUE_URL"),
                config,
                config.purgeFence(),
                Clock.systemUTC());
    }

    /** @param fence how long the purge waits after the DELETE (see WorkspacePurge) */
    public DeleteWorkspaceFunction(
            DynamoDbClient client, SqsClient sqs, String queueUrl, FunctionConfig config, Duration fence, Clock clock) {
        super(config, DeleteWorkspaceOperation.INSTANCE);
        if (queueUrl == null || queueUrl.isBlank()) {
            // Fail at init, not after a workspace was marked with no purge to follow: the template sets QUEUE_URL.
            throw new IllegalStateException("QUEUE_URL is not set: a DELETE has no job queue for its purge");
        }
        this.store = itemStore(client, config);
        this.queue = new TaskQueue(sqs, queueUrl);
        this.fence = fence;
        this.clock = clock;
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        request.requireOperator();
        WorkspaceId workspaceId = request.workspaceId();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Purge purge = store.deleteWorkspace(
                workspaceId, request.optionalIfMatchVersion(), runIds.next().value(), now, tally);
        Duration sinceDelete = Duration.between(purge.deletedAt(), now);
        Duration delay = sinceDelete.compareTo(fence) >= 0 ? Duration.ZERO : fence.minus(sinceDelete);
        queue.sendDelayed(new JobTask(JobTask.PURGE, workspaceId, purge.runId()), delay);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", workspaceId.value());
        body.put("status", "DELETING");
        body.put("deletedAt", purge.deletedAt().toString());
        return HttpResponse.json(202, body);
    }

    @Override
    protected Optional<PrimingRequest> primingRequest() {
        return super.primingRequest().map(request -> request.withHeader("if-match", PrimingRequest.NO_SUCH_VERSION));
    }
}
