package dev.oneread.jobs;

import dev.oneread.runtime.AwsClients;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The SQS client of a function that sends tasks (the planner, DeleteWorkspace, a purge's continuation in RunJob):
 * configured from its environment as DynamoDB's is ({@link AwsClients}), with standard retries. In the jobs module,
 * so that only those functions carry the SQS client.
 *
 * <pre>{@code TaskQueue queue = new TaskQueue(SqsClients.fromEnvironment(FunctionEnvironment.get()), queueUrl);}</pre>
 */
public final class SqsClients {
    /** Overrides the SQS endpoint (the local runner's embedded queue, tests); unset on Lambda. */
    public static final String ENDPOINT_VARIABLE = "SQS_ENDPOINT";

    private SqsClients() {}

    /** An SQS client configured from {@code environment}: DynamoDB's region, credentials and HTTP client. */
    public static SqsClient fromEnvironment(Map<String, String> environment) {
        return AwsClients.build(SqsClient.builder(), environment, ENDPOINT_VARIABLE);
    }
}
