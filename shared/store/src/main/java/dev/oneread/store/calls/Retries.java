package dev.oneread.store.calls;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.retries.api.RetryStrategy;

/**
 * How a client retries: a named SDK retry strategy and the timeouts that bound it. The strategy is built anew for
 * each client (an adaptive strategy keeps a rate of its own, which two clients must not share). Each request's own
 * timeouts come from what is left of its invocation ({@link CallAudit#tagged}); these are the client's ceilings.
 *
 * <p>The candidates were measured side by side against the engine's partition limits (bench/retries.sh, figures
 * in docs/access-patterns.md); {@link #of(CallPath)} is the choice.
 *
 * @param name           as the benchmark and docs/access-patterns.md name it
 * @param strategy       builds the client's strategy
 * @param attemptTimeout the longest one attempt may take
 * @param callTimeout    the longest a call, all attempts and back-offs together, may take
 */
public record Retries(String name, Supplier<RetryStrategy> strategy, Duration attemptTimeout, Duration callTimeout) {
    /** The SDK's largest back-off between attempts (SdkDefaultRetrySetting.MAX_BACKOFF). */
    private static final Duration SDK_MAX_BACKOFF = Duration.ofSeconds(20);
    /** DynamoDB's own base delay in the SDK (DynamoDbRetryPolicy.BASE_DELAY). */
    private static final Duration DYNAMODB_BASE_DELAY = Duration.ofMillis(25);
    /** DynamoDB's own attempt budget in the SDK when no strategy is set (DynamoDbRetryPolicy.MAX_ATTEMPTS_V20). */
    private static final int DYNAMODB_MAX_ATTEMPTS = 9;
    /** A partition's bucket refills within a second: a back-off past that only wastes the caller's time. */
    private static final Duration REFILL = Duration.ofSeconds(1);

    private static final Duration REQUEST_ATTEMPT = CallAudit.MAX_ATTEMPT_TIME;
    /** Well inside the API functions' Timeout (10 s in template.yaml), itself inside API Gateway's 30 s. */
    private static final Duration REQUEST_CALL = Duration.ofSeconds(5);
    /** A job's call may wait out a hot partition; its invocation's deadline still bounds it (CallTally). */
    private static final Duration JOB_CALL = Duration.ofSeconds(60);

    /** The SDK's standard mode as it comes: 3 attempts, a throttle backs off from 1 s. */
    public static Retries sdkStandard(Duration callTimeout) {
        return new Retries("standard", AwsRetryStrategy::standardRetryStrategy, REQUEST_ATTEMPT, callTimeout);
    }

    /** What the SDK gives a DynamoDB client that sets no strategy: 9 attempts from a 25 ms base. */
    public static Retries dynamoDbDefault(Duration callTimeout) {
        return new Retries(
                "dynamodb-default",
                () -> AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(DYNAMODB_MAX_ATTEMPTS)
                        .backoffStrategy(BackoffStrategy.exponentialDelay(DYNAMODB_BASE_DELAY, SDK_MAX_BACKOFF))
                        .throttlingBackoffStrategy(
                                BackoffStrategy.exponentialDelay(DYNAMODB_BASE_DELAY, SDK_MAX_BACKOFF))
                        .build(),
                REQUEST_ATTEMPT,
                callTimeout);
    }

    /** Standard with {@code attempts} and a throttle back-off from {@code base}, never past a bucket's refill. */
    public static Retries standard(int attempts, Duration base, Duration callTimeout) {
        return new Retries(
                "standard-" + attempts + "x" + base.toMillis() + "ms",
                () -> AwsRetryStrategy.standardRetryStrategy().toBuilder()
                        .maxAttempts(attempts)
                        .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(base, REFILL))
                        .build(),
                REQUEST_ATTEMPT,
                callTimeout);
    }

    /** The SDK's adaptive mode: standard, and a client-side rate that falls with every throttle. */
    public static Retries adaptive(Duration callTimeout) {
        return new Retries("adaptive", AwsRetryStrategy::adaptiveRetryStrategy, REQUEST_ATTEMPT, callTimeout);
    }

    /** Every candidate the benchmark compares, for {@code path}'s call timeout. */
    public static List<Retries> candidates(CallPath path) {
        Duration call = callTimeout(path);
        return List.of(
                sdkStandard(call), dynamoDbDefault(call), standard(5, Duration.ofMillis(50), call), adaptive(call));
    }

    /**
     * The choice for {@code path}, from the benchmark's figures (docs/access-patterns.md, "Retries under throttling"). A request
     * takes the SDK's standard mode: the best goodput of the four, few 503s, p99 well inside the deadline; the
     * quick-retry candidates drain standard's retry token bucket under a sustained throttle and then answer 503 at
     * once, thousands of times. A job takes adaptive: no 503s and by far the fewest throttled attempts, so it yields
     * the partition to requests, at a lower goodput and a longer wait, which a job can afford.
     */
    public static Retries of(CallPath path) {
        return switch (path) {
            case REQUEST -> sdkStandard(REQUEST_CALL);
            case JOB -> adaptive(JOB_CALL);
        };
    }

    private static Duration callTimeout(CallPath path) {
        return path == CallPath.REQUEST ? REQUEST_CALL : JOB_CALL;
    }
}
