package dev.oneread.functions.runjob;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.http.FunctionConfig;
import dev.oneread.jobs.BatchItemFailures;
import dev.oneread.jobs.JobWorker;
import dev.oneread.json.Json;
import dev.oneread.store.CallTally;
import dev.oneread.store.DynamoDbClients;
import dev.oneread.store.StatsRollup;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The worker, behind the job queue's event source mapping: runs each task of the batch and answers with the
 * partial-batch response ({@code batchItemFailures}) alone, so the mapping deletes what succeeded and lets the rest
 * come back. One log line per task.
 */
public final class RunJobFunction implements RequestStreamHandler {
    private final JobWorker worker;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public RunJobFunction() {
        this(DynamoDbClients.shared(), FunctionConfig.fromEnvironment("RunJob"));
    }

    public RunJobFunction(DynamoDbClient client, FunctionConfig config) {
        this.worker = new JobWorker(new StatsRollup(client, config.tableName(), config.shardPlan()), Clock.systemUTC());
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        CallTally tally = new CallTally(context == null ? null : Duration.ofMillis(context.getRemainingTimeInMillis()));
        BatchItemFailures failures = worker.run(Json.readObject(input), tally, line -> {
            String text = Json.write(line);
            if (context != null && context.getLogger() != null) {
                context.getLogger().log(text + "\n");
            } else {
                System.out.println(text);
            }
        });
        output.write(Json.write(failures.toResponse()).getBytes(StandardCharsets.UTF_8));
    }
}
