package dev.oneread.store;

import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;

/**
 * Counts every DynamoDB request and sums the capacity it consumed, into the {@link CallTally} the store
 * attached to that request. It sits on the client, so it sees what really went over the wire (retries
 * too), not what the code meant to send.
 *
 * <pre>{@code DynamoDbClient client = DynamoDbClient.builder()
 *         .overrideConfiguration(c -> c.addExecutionInterceptor(new ReadAudit())).build();}</pre>
 */
public final class ReadAudit implements ExecutionInterceptor {
    static final ExecutionAttribute<CallTally> TALLY = new ExecutionAttribute<>("oneread.CallTally");

    /** Attaches {@code tally} to one request; the result is sent, the pure request stays untouched. */
    @SuppressWarnings("unchecked")
    static <T extends DynamoDbRequest> T tagged(T request, CallTally tally) {
        return (T) request.toBuilder()
                .overrideConfiguration(o -> o.putExecutionAttribute(TALLY, tally))
                .build();
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        // One attempt, one request DynamoDB sees. Capacity arrives later, only for the attempt that succeeds.
        CallTally tally = attributes.getAttribute(TALLY);
        if (tally != null) {
            tally.recordCall(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
        }
    }

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
        CallTally tally = attributes.getAttribute(TALLY);
        ConsumedCapacity consumed = consumedCapacity(context.response());
        if (tally != null && consumed != null && consumed.capacityUnits() != null) {
            tally.addCapacity(consumed.capacityUnits());
        }
    }

    private static ConsumedCapacity consumedCapacity(SdkResponse response) {
        if (response instanceof GetItemResponse r) {
            return r.consumedCapacity();
        } else if (response instanceof QueryResponse r) {
            return r.consumedCapacity();
        } else if (response instanceof PutItemResponse r) {
            return r.consumedCapacity();
        } else if (response instanceof UpdateItemResponse r) {
            return r.consumedCapacity();
        } else if (response instanceof DeleteItemResponse r) {
            return r.consumedCapacity();
        }
        return null;
    }
}
