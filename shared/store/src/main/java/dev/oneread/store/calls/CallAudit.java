package dev.oneread.store.calls;

import dev.oneread.store.items.ItemSize;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * Audits every DynamoDB request into the {@link CallTally} the store attached to it: one {@link AuditedCall}
 * per request on the wire (retries too), with what the store addressed, its expressions, the items it read and
 * returned and the capacity it consumed. It sits on the client, so it sees what really went over the wire, not
 * what the code meant to send. Headers, log line and console all read that one record.
 *
 * <pre>{@code DynamoDbClient client = DynamoDbClient.builder()
 *         .overrideConfiguration(c -> c.addExecutionInterceptor(new CallAudit())).build();}</pre>
 */
public final class CallAudit implements ExecutionInterceptor {
    static final ExecutionAttribute<CallTally> TALLY = attribute("CallTally");
    /** What the store addressed, handed over with the request: nothing is parsed back out of an expression. */
    static final ExecutionAttribute<Addressed> ADDRESSED = attribute("Addressed");
    /** The attempt's place in the tally, so that its answer completes its own record. */
    private static final ExecutionAttribute<Integer> CALL = attribute("Call");
    /** Set while an attempt is on the wire, so that it is counted out exactly once. */
    private static final ExecutionAttribute<Boolean> ON_THE_WIRE = attribute("OnTheWire");

    /**
     * An attribute named for this copy of the class. The SDK holds attribute names once per copy of itself and
     * refuses a second attribute of the same name; the local runner hosts every function in a loader of its own
     * over one shared SDK, so each function's copy of this class must name its attributes apart.
     */
    private static <T> ExecutionAttribute<T> attribute(String name) {
        return new ExecutionAttribute<>(
                "oneread." + name + "@" + Integer.toHexString(System.identityHashCode(CallAudit.class)));
    }

    /** No single call waits longer than this, even with time to spare: the retries get the rest. */
    static final Duration MAX_ATTEMPT_TIME = Duration.ofSeconds(2);

    /** The partition a request addresses, and the secondary index it reads (null for the table). */
    record Addressed(String partition, String index) {}

    /**
     * Attaches {@code tally} and what the request addresses to one request, for the audit, and timeouts from what
     * is left of the tally's {@link InvocationDeadline}. The pure request stays as built; this is what is sent.
     */
    @SuppressWarnings("unchecked")
    public static <T extends DynamoDbRequest> T tagged(T request, String partition, String index, CallTally tally) {
        return (T) request.toBuilder()
                .overrideConfiguration(o -> {
                    tally.deadline().limit(o);
                    o.putExecutionAttribute(TALLY, tally)
                            .putExecutionAttribute(ADDRESSED, new Addressed(partition, index));
                })
                .build();
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        // One attempt, one request DynamoDB sees. Capacity arrives later, only for the attempt that succeeds.
        CallTally tally = attributes.getAttribute(TALLY);
        if (tally != null) {
            settle(attributes); // a retry: the failed attempt before it is off the wire
            Addressed addressed = attributes.getAttribute(ADDRESSED);
            attributes.putAttribute(
                    CALL,
                    tally.record(AuditedCall.sent(
                            attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), context.request(),
                            addressed.partition(), addressed.index())));
            tally.sent();
            attributes.putAttribute(ON_THE_WIRE, Boolean.TRUE);
        }
    }

    @Override
    public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
        settle(attributes);
    }

    /** The status DynamoDB answers a throttled request with (its exception type says which throttle). */
    private static final int THROTTLE_STATUS = 400;

    private static final Pattern ERROR_TYPE = Pattern.compile("\"__type\"\\s*:\\s*\"(?:[^\"#]*#)?([A-Za-z]+)\"");
    private static final Pattern REASON = Pattern.compile("\"reason\"\\s*:\\s*\"([A-Za-z]+)\"");

    /**
     * Every attempt's answer passes here, the ones the SDK retries too: a throttled attempt is recorded with its
     * reasons before the retry that may follow it. The body is read and handed on unchanged.
     */
    @Override
    public Optional<InputStream> modifyHttpResponseContent(
            Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
        CallTally tally = attributes.getAttribute(TALLY);
        Integer call = attributes.getAttribute(CALL);
        Optional<InputStream> body = context.responseBody();
        if (tally == null || call == null || context.httpResponse().statusCode() != THROTTLE_STATUS || body.isEmpty()) {
            return body;
        }
        byte[] bytes;
        try (InputStream in = body.get()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        Matcher type = ERROR_TYPE.matcher(text);
        if (type.find() && THROTTLING_TYPES.contains(type.group(1))) {
            List<String> reasons = new ArrayList<>();
            Matcher reason = REASON.matcher(text);
            while (reason.find()) {
                reasons.add(reason.group(1));
            }
            // An old engine, or a throttle with no reasons given (RequestLimitExceeded): still a throttle.
            List<String> named = reasons.isEmpty() ? List.of(type.group(1)) : reasons;
            tally.revise(call, c -> c.throttled(type.group(1), named));
        }
        return Optional.of(new ByteArrayInputStream(bytes));
    }

    /** DynamoDB's throttling exceptions: a hot key or index, an on-demand cap, the account's request limit. */
    private static final Set<String> THROTTLING_TYPES =
            Set.of("ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded");

    @Override
    public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
        CallTally tally = attributes.getAttribute(TALLY);
        Integer call = attributes.getAttribute(CALL);
        if (tally != null && call != null) {
            tally.revise(call, c -> c.answered(context.response()));
            if (context.response() instanceof GetItemResponse read
                    && read.hasItem()
                    && !read.item().isEmpty()) {
                measureRefusedWrite(tally, call, read.item());
            }
        }
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        settle(attributes);
        CallTally tally = attributes.getAttribute(TALLY);
        Integer call = attributes.getAttribute(CALL);
        if (tally == null || call == null) {
            return;
        }
        String error = context.exception().getClass().getSimpleName();
        if (context.exception() instanceof ConditionalCheckFailedException refused) {
            // Billed by the size of the item that refused it (1 when there is none), reported nowhere: count it
            // from the item DynamoDB returned with the failure; without one, from the read that may follow.
            Map<String, AttributeValue> current = refused.hasItem() ? refused.item() : Map.of();
            tally.revise(call, c -> c.refused(ItemSize.writeUnits(current), error));
        } else if (!tally.call(call).wasThrottled()) {
            tally.revise(call, c -> c.failed(error));
        }
    }

    /**
     * An engine that does not return the item with a refused write (dynalite) leaves its billed size unknown, and
     * the store then reads that item at once to tell 404 from 412: that read measures the write it follows.
     */
    private static void measureRefusedWrite(CallTally tally, int read, Map<String, AttributeValue> item) {
        if (read == 0) {
            return;
        }
        AuditedCall before = tally.call(read - 1);
        if (before.refusedAt(tally.call(read).key())) {
            long units = ItemSize.writeUnits(item);
            tally.revise(read - 1, c -> c.refused(Math.max(units, c.capacity().longValue()), c.error()));
        }
    }

    private static void settle(ExecutionAttributes attributes) {
        CallTally tally = attributes.getAttribute(TALLY);
        if (tally != null && Boolean.TRUE.equals(attributes.getAttribute(ON_THE_WIRE))) {
            attributes.putAttribute(ON_THE_WIRE, Boolean.FALSE);
            tally.settled();
        }
    }
}
