package dev.oneread.tests.support;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;

/** The failures the tests inject into the SDK's pipeline (with an ExecutionInterceptor), as DynamoDB answers them. */
public final class InjectedFaults {
    private InjectedFaults() {}

    /** What DynamoDB answers a request beyond the table's throughput: retryable, and nothing happened. */
    public static ProvisionedThroughputExceededException throttled() {
        return (ProvisionedThroughputExceededException) ProvisionedThroughputExceededException.builder()
                .statusCode(400)
                .message("injected throttling")
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode("ProvisionedThroughputExceededException")
                        .serviceName("DynamoDB")
                        .build())
                .build();
    }
}
