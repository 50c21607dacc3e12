package dev.oneread.local.iam;

import java.util.List;
import java.util.Map;

/**
 * What IAM authorizes for one SQS call in its JSON protocol ({@code X-Amz-Target: AmazonSQS.SendMessage}): the
 * action, where a batch needs its single action's permission (SQS developer guide, "Amazon SQS API permissions":
 * SendMessageBatch is sqs:SendMessage), on the ARN of the queue its QueueUrl names.
 *
 * <pre>{@code List<IamRequest> requests = SqsCalls.of("AmazonSQS.SendMessage", body);}</pre>
 */
public final class SqsCalls {
    /** The X-Amz-Target prefix of SQS's JSON protocol. */
    public static final String TARGET_PREFIX = "AmazonSQS.";

    private SqsCalls() {}

    public static List<IamRequest> of(String target, Map<String, Object> body) {
        String operation = target.substring(TARGET_PREFIX.length());
        String action =
                "sqs:" + (operation.endsWith("Batch") ? operation.substring(0, operation.length() - 5) : operation);
        Object url = body.get("QueueUrl");
        String queue = url != null
                ? String.valueOf(url).substring(String.valueOf(url).lastIndexOf('/') + 1)
                : String.valueOf(body.getOrDefault("QueueName", "*"));
        return List.of(new IamRequest(action, PolicyValues.queueArn(queue), Map.of()));
    }
}
