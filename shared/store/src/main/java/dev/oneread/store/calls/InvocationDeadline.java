package dev.oneread.store.calls;

import java.time.Duration;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;

/**
 * The time budget of one invocation: what is left of the Lambda's time, less a margin to write the response. Every
 * DynamoDB call the store sends gets at most what is left of it ({@link #limit}, as the SDK's call and attempt
 * timeouts), and every claim held on the invocation's behalf lasts at least until a write it sent can no longer land
 * ({@link #untilSentWritesLand}). The SDK enforces the timeouts itself, so the budget needs no interceptor; the
 * {@link CallAudit} interceptor records the calls into the invocation's {@link CallTally}, which carries this budget.
 *
 * <pre>{@code CallTally tally = new CallTally(InvocationDeadline.in(Duration.ofMillis(remainingMillis)));}</pre>
 */
public final class InvocationDeadline {
    /** Beyond the client's attempt timeout, for a request DynamoDB accepted but had not yet committed. */
    static final Duration LANDING_MARGIN = Duration.ofSeconds(5);
    /**
     * How long after it was sent a write can still land: one attempt's timeout, and {@link #LANDING_MARGIN}. What
     * ends a claim once its holder has stopped sending waits this long after the last send.
     */
    public static final Duration IN_FLIGHT = CallAudit.MAX_ATTEMPT_TIME.plus(LANDING_MARGIN);
    /** Lambda's limit: no invocation, so no budget without a deadline either, sends for longer. */
    private static final Duration LONGEST_INVOCATION = Duration.ofMinutes(15);
    /**
     * The furthest a claim taken now can reach ({@link #untilSentWritesLand} of the longest invocation): a lease
     * that ends later was written by no run of this code, and would hold off a purge for as long.
     */
    public static final Duration LONGEST_CLAIM = LONGEST_INVOCATION.plus(IN_FLIGHT);
    /** Below this, a call cannot finish: fail fast with "unavailable" rather than start it. */
    private static final Duration MIN_CALL_TIME = Duration.ofMillis(50);

    private static final InvocationDeadline NONE = new InvocationDeadline(Long.MAX_VALUE);

    private final long deadlineNanos;

    private InvocationDeadline(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
    }

    /** No deadline: for tests and tools. */
    public static InvocationDeadline none() {
        return NONE;
    }

    /** A deadline {@code budget} from now; {@link #none()} for a null budget (an invocation without a context). */
    public static InvocationDeadline in(Duration budget) {
        return budget == null ? NONE : new InvocationDeadline(System.nanoTime() + budget.toNanos());
    }

    /** Time left before the deadline; {@link Duration#ZERO} once it has passed. */
    public Duration remaining() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Duration.ofDays(1);
        }
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    /**
     * How long from now a write this invocation sends can still land: a request sent at the last moment of its
     * budget stays on the wire for up to one attempt's timeout, and DynamoDB may commit it after the SDK gave up
     * on it (a timeout is not a refusal); {@link #LANDING_MARGIN} covers the server's side of that. Whatever
     * holds a claim on this invocation's behalf (an idempotency record) must hold at least this long.
     */
    public Duration untilSentWritesLand() {
        Duration sendable = remaining().compareTo(LONGEST_INVOCATION) < 0 ? remaining() : LONGEST_INVOCATION;
        return sendable.plus(IN_FLIGHT);
    }

    /**
     * Gives one request timeouts from what is left: the whole call (retries included) ends before the Lambda would
     * be killed mid-write, and no attempt waits longer than {@link CallAudit#MAX_ATTEMPT_TIME}.
     *
     * @throws ApiCallTimeoutException when too little is left for any call to finish
     */
    void limit(AwsRequestOverrideConfiguration.Builder request) {
        Duration left = remaining();
        if (left.compareTo(MIN_CALL_TIME) < 0) {
            throw ApiCallTimeoutException.create(left.toMillis());
        }
        Duration attempt = left.compareTo(CallAudit.MAX_ATTEMPT_TIME) < 0 ? left : CallAudit.MAX_ATTEMPT_TIME;
        request.apiCallTimeout(left).apiCallAttemptTimeout(attempt);
    }
}
