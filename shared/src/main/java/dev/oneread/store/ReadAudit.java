package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
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
    /** Set while an attempt is on the wire, so that it is counted out exactly once. */
    private static final ExecutionAttribute<Boolean> ON_THE_WIRE = new ExecutionAttribute<>("oneread.OnTheWire");

    /** Below this, a call cannot finish: fail fast with "unavailable" rather than start it. */
    private static final Duration MIN_CALL_TIME = Duration.ofMillis(50);
    /** No single call waits longer than this, even with time to spare: the retries get the rest. */
    private static final Duration MAX_ATTEMPT_TIME = Duration.ofSeconds(2);

    /**
     * Attaches {@code tally} to one request, and timeouts from what is left of the invocation: the whole
     * call (retries included) ends before the Lambda would be killed mid-write. The pure request stays as
     * built; this is what is sent.
     */
    @SuppressWarnings("unchecked")
    static <T extends DynamoDbRequest> T tagged(T request, CallTally tally) {
        Duration remaining = tally.remaining();
        if (remaining.compareTo(MIN_CALL_TIME) < 0) {
            throw ApiCallTimeoutException.create(remaining.toMillis());
        }
        Duration attempt = remaining.compareTo(MAX_ATTEMPT_TIME) < 0 ? remaining : MAX_ATTEMPT_TIME;
        return (T) request.toBuilder()
                .overrideConfiguration(o -> o.putExecutionAttribute(TALLY, tally)
                        .apiCallTimeout(remaining)
                        .apiCallAttemptTimeout(attempt))
                .build();
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        // One attempt, one request DynamoDB sees. Capacity arrives later, only for the attempt that succeeds.
        CallTally tally = attributes.getAttribute(TALLY);
        if (tally != null) {
            settle(attributes); // a retry: the failed attempt before it is off the wire
            tally.recordCall(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), partition(context.request()));
            tally.sent();
            attributes.putAttribute(ON_THE_WIRE, Boolean.TRUE);
        }
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        settle(attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        settle(attributes);
    }

    private static void settle(ExecutionAttributes attributes) {
        CallTally tally = attributes.getAttribute(TALLY);
        if (tally != null && Boolean.TRUE.equals(attributes.getAttribute(ON_THE_WIRE))) {
            attributes.putAttribute(ON_THE_WIRE, Boolean.FALSE);
            tally.settled();
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

    /** The partition key value a request addresses (for a Query, the one its key condition binds). */
    static String partition(SdkRequest request) {
        Map<String, AttributeValue> key = null;
        if (request instanceof GetItemRequest r) {
            key = r.key();
        } else if (request instanceof PutItemRequest r) {
            key = r.item();
        } else if (request instanceof UpdateItemRequest r) {
            key = r.key();
        } else if (request instanceof DeleteItemRequest r) {
            key = r.key();
        } else if (request instanceof QueryRequest r) {
            Matcher equality = PARTITION_EQUALITY.matcher(r.keyConditionExpression());
            while (equality.find()) {
                if (KeyCodec.PARTITION_KEY.equals(r.expressionAttributeNames().get(equality.group(1)))) {
                    return r.expressionAttributeValues().get(equality.group(2)).s();
                }
            }
        }
        return key == null || key.get(KeyCodec.PARTITION_KEY) == null ? null : key.get(KeyCodec.PARTITION_KEY).s();
    }

    private static final Pattern PARTITION_EQUALITY = Pattern.compile("(#\\w+) = (:\\w+)");

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
