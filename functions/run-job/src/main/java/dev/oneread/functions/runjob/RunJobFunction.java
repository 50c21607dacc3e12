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
        this(Dependencies.fromEnvironment(FunctionConfig.fromEnvironment("RunJob")));
    }

    /** A worker on {@code dependencies}: the Lambda runtime's from the environment, or a test's own. */
    public RunJobFunction(Dependencies dependencies) {
        FunctionConfig config = dependencies.config();
        // Without a queue (a task invoked by hand, outside a local world), a purge that runs out of time fails its
        // message instead of continuing: it comes back after the visibility timeout and goes on all the same.
        String queueUrl = dependencies.queueUrl();
        this.worker = new JobWorker(
                new StatsRollup(
                        dependencies.client(),
                        config.tableName(),
                        config.shardPlan(),
                        dependencies.hot(),
                        dependencies.share()),
                new WorkspacePurge(
                        dependencies.client(),
                        config.tableName(),
                        config.shardPlan(),
                        dependencies.purgeFence(),
                        dependencies.share()),
                queueUrl == null || queueUrl.isBlank() ? null : new TaskQueue(dependencies.sqs(), queueUrl),
                dependencies.clock(),
                config.shardPlan());
    }

    /**
     * What the worker runs on: {@link #of} takes the function's configuration for the rest, and each {@code with*}
     * replaces one part.
     *
     * <pre>{@code
     * new RunJobFunction(RunJobFunction.Dependencies.of(client, sqs, queueUrl, config).withPurgeFence(Duration.ZERO));
     * }</pre>
     *
     * @param client     the DynamoDB client every task calls through
     * @param sqs        the queue client, built only when a purge sends its continuation
     * @param queueUrl   the job queue, where a purge that ran out of time sends its continuation (null: none)
     * @param config     the function's configuration: its table and shard plan
     * @param purgeFence how long a purge waits after its DELETE (see WorkspacePurge)
     * @param hot        when the stats job reports a partition as hot
     * @param share      the most of each partition's capacity a task may take (the template's JobPartitionShare)
     * @param clock      what the tasks take as now (a purge's fence, a run id's admission): the system's, or one a
     *     test moves to let a fence pass as an event
     */
    public record Dependencies(
            DynamoDbClient client,
            Supplier<SqsClient> sqs,
            String queueUrl,
            FunctionConfig config,
            Duration purgeFence,
            HotPartitionThreshold hot,
            JobPace.Share share,
            Clock clock) {
        /** The fence, the threshold and the share as {@code config} gives them, on the system's clock. */
        public static Dependencies of(
                DynamoDbClient client, Supplier<SqsClient> sqs, String queueUrl, FunctionConfig config) {
            return new Dependencies(
                    client,
                    sqs,
                    queueUrl,
                    config,
                    config.purgeFence(),
                    config.hotPartitionThreshold(),
                    config.jobPartitionShare(),
                    Clock.systemUTC());
        }

        /** The shared client, and the queue of the function's environment. */
        static Dependencies fromEnvironment(FunctionConfig config) {
            return of(
                    DynamoDbClients.shared(dev.oneread.store.calls.CallPath.JOB),
                    () -> SqsClients.fromEnvironment(config.environment()), // only a purge's continuation sends
                    config.environment().get("QUEUE_URL"),
                    config);
        }

        public Dependencies withPurgeFence(Duration purgeFence) {
            return new Dependencies(client, sqs, queueUrl, config, purgeFence, hot, share, clock);
        }

        public Dependencies withHot(HotPartitionThreshold hot) {
            return new Dependencies(client, sqs, queueUrl, config, purgeFence, hot, share, clock);
        }

        public Dependencies withShare(JobPace.Share share) {
            return new Dependencies(client, sqs, queueUrl, config, purgeFence, hot, share, clock);
        }

        public Dependencies withClock(Clock clock) {
            return new Dependencies(client, sqs, queueUrl, config, purgeFence, hot, share, clock);
        }
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
