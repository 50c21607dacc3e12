package dev.oneread.tests.support;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.functions.planjobs.PlanJobsFunction;
import dev.oneread.functions.runjob.RunJobFunction;
import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.local.runner.LocalQueues;
import dev.oneread.model.HotPartitionThreshold;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/** The job functions as the tests and benchmarks run them: on a test engine's table and queues, invoked as an event
 * source mapping invokes them, their log lines collected. */
public final class JobFunctions {
    private JobFunctions() {}

    /** The worker on the test's job queue (where a purge continues), with no purge fence. */
    public static RunJobFunction worker(DynamoDbClient client, LocalQueues queues, ShardPlan plan, String table) {
        return new RunJobFunction(RunJobFunction.Dependencies.of(
                        client, queues::client, queues.url("JobQueue"), Api.config("RunJob", plan, table))
                .withPurgeFence(Duration.ZERO)
                .withHot(HotPartitionThreshold.defaults()));
    }

    /** The planner on the test's queues: the job queue, and its own for continuations. */
    public static PlanJobsFunction planner(TestEngine engine, LocalQueues queues, ShardPlan plan, String table) {
        return new PlanJobsFunction(
                engine.functionClient("PlanJobs", table),
                engine.pool,
                queues.client(),
                queues.url("JobQueue"),
                queues.url("PlanQueue"),
                Api.config("PlanJobs", plan, table));
    }

    /** One invocation of a job function by an event source mapping; its log lines go to {@code lines}. */
    public static byte[] invoke(RequestStreamHandler function, byte[] event, List<Map<String, Object>> lines) {
        TestContext context = new TestContext();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            function.handleRequest(new ByteArrayInputStream(event), out, context);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        context.logLines.forEach(line -> lines.add(Json.readObject(line)));
        return out.toByteArray();
    }

    /**
     * The messages of one of the test's queues that are to be received or in flight: 0 once every delivery has been
     * deleted (succeeded) or moved on. Delayed messages (a continuation waiting its turn) are not counted.
     */
    public static int depth(LocalQueues queues, String queue) {
        Map<QueueAttributeName, String> attributes = queues.client()
                .getQueueAttributes(GetQueueAttributesRequest.builder()
                        .queueUrl(queues.url(queue))
                        .attributeNames(
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                                QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE)
                        .build())
                .attributes();
        return Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES))
                + Integer.parseInt(attributes.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE));
    }

    public static int applied(List<Map<String, Object>> lines) {
        synchronized (lines) {
            return (int) lines.stream()
                    .filter(l -> Boolean.TRUE.equals(l.get("applied")))
                    .count();
        }
    }
}
