package dev.oneread.functions.runjob;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.jobs.JobWorker;
import dev.oneread.jobs.SqsClients;
import dev.oneread.jobs.TaskQueue;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.runtime.JobFrame;
import dev.oneread.store.calls.JobPace;
import dev.oneread.store.purge.WorkspacePurge;
import dev.oneread.store.stats.StatsRollup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The worker, behind the job queue's event source mapping: runs each task of the batch and answers with the
 * partial-batch response ({@code batchItemFailures}) alone, so the mapping deletes what succeeded and lets the rest
 * come back. One log line per task.
 */
public final class RunJobFunction implements RequestStreamHandler {
    private final JobWorker worker;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public RunJobFunction() {
        this(FunctionConfig.fromEnvironment("RunJob"));
    }

    private RunJobFunction(FunctionConfig config) {
        this(
                DynamoDbClients.shared(dev.oneread.store.calls.CallPath.JOB),
                () -> SqsClients.fromEnvironment(config.environment()), // only a purge's continuation sends
                config.environment().get("QUEUE_URL"),
                config,
                config.purgeFence(),
                config.hotPartitionThreshold());
    }

    /**
     * @param queueUrl   the job queue, where a purge that ran out of time sends its continuation (null: none)
     * @param purgeFence how long a purge waits after its DELETE (see WorkspacePurge)
     * @param hot        when the stats job reports a partition as hot
     */
    public RunJobFunction(
            DynamoDbClient client,
            Supplier<SqsClient> sqs,
            String queueUrl,
            FunctionConfig config,
            Duration purgeFence,
            HotPartitionThreshold hot) {
        this(client, sqs, queueUrl, config, purgeFence, hot, config.jobPartitionShare());
    }

    /** @param share the most of each partition's capacity a task may take (the template's JobPartitionShare) */
    public RunJobFunction(
            DynamoDbClient client,
            Supplier<SqsClient> sqs,
            String queueUrl,
            FunctionConfig config,
            Duration purgeFence,
            HotPartitionThreshold hot,
            JobPace.Share share) {
        this(client, sqs, queueUrl, config, purgeFence, hot, share, Clock.systemUTC());
    }

    /**
     * @param clock what the tasks take as now (a purge's fence, a run id's admission): the system's, or one a test
     *     moves to let a fence pass as an event
     */
    public RunJobFunction(
            DynamoDbClient client,
            Supplier<SqsClient> sqs,
            String queueUrl,
            FunctionConfig config,
            Duration purgeFence,
            HotPartitionThreshold hot,
            JobPace.Share share,
            Clock clock) {
        // Without a queue (a task invoked by hand, outside a local world), a purge that runs out of time fails its
        // message instead of continuing: it comes back after the visibility timeout and goes on all the same.
        this.worker = new JobWorker(
                new StatsRollup(client, config.tableName(), config.shardPlan(), hot, share),
                new WorkspacePurge(client, config.tableName(), config.shardPlan(), purgeFence, share),
                queueUrl == null || queueUrl.isBlank() ? null : new TaskQueue(sqs, queueUrl),
                clock,
                config.shardPlan());
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JobFrame.runAnswering(
                input,
                output,
                context,
                (event, tally, log) -> worker.run(event, tally, log).toResponse());
    }
}
