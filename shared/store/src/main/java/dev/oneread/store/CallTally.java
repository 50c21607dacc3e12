package dev.oneread.store;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The DynamoDB calls one invocation made, each as an {@link AuditedCall}, filled by {@link CallAudit}: how many,
 * the capacity they consumed, what each addressed. One tally per invocation; thread-safe because a fan-out
 * read reports from the query pool's threads ({@link QueryPool}), one per partition.
 */
public final class CallTally {
    /** Beyond the client's attempt timeout, for a request DynamoDB accepted but had not yet committed. */
    static final Duration LANDING_MARGIN = Duration.ofSeconds(5);
    /**
     * How long after it was sent a write can still land: one attempt's timeout, and {@link #LANDING_MARGIN}. What
     * ends a claim once its holder has stopped sending waits this long after the last send.
     */
    public static final Duration IN_FLIGHT = CallAudit.MAX_ATTEMPT_TIME.plus(LANDING_MARGIN);
    /** Lambda's limit: no invocation, so no tally without a deadline either, sends for longer. */
    private static final Duration LONGEST_INVOCATION = Duration.ofMinutes(15);

    private final long deadlineNanos;
    private final List<AuditedCall> calls = new ArrayList<>();
    private int inFlight;
    private int maxInFlight;

    /** A tally with no deadline: for tests and tools. */
    public CallTally() {
        this(null);
    }

    /**
     * A tally for an invocation that must be done within {@code budget} (the Lambda's remaining time less a
     * margin to write the response): every DynamoDB call gets at most what is left of it.
     */
    public CallTally(Duration budget) {
        this.deadlineNanos = budget == null ? Long.MAX_VALUE : System.nanoTime() + budget.toNanos();
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

    /** Records a request going out; returns its place, by which the audit completes it. */
    synchronized int record(AuditedCall call) {
        calls.add(call);
        return calls.size() - 1;
    }

    synchronized AuditedCall call(int index) {
        return calls.get(index);
    }

    synchronized void revise(int index, UnaryOperator<AuditedCall> change) {
        calls.set(index, change.apply(calls.get(index)));
    }

    synchronized void sent() {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
    }

    synchronized void settled() {
        inFlight--;
    }

    /** The most requests this invocation had on the wire at once: 1 for a plain read, N for a fan-out. */
    public synchronized int maxInFlight() {
        return maxInFlight;
    }

    /** Every request in the order sent, retries included, as far as each has been answered. */
    public synchronized List<AuditedCall> auditedCalls() {
        return List.copyOf(calls);
    }

    /** DynamoDB requests sent, retries included: each one is a request DynamoDB saw (and may bill). */
    public synchronized int calls() {
        return calls.size();
    }

    /**
     * Capacity units consumed, reads and writes together: as DynamoDB reported them, and for a refused conditional
     * write (which DynamoDB bills but reports nothing for) as its item-size rule has it.
     */
    public synchronized BigDecimal capacity() {
        BigDecimal sum = calls.stream()
                .map(AuditedCall::capacity)
                .filter(Objects::nonNull)
                .reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal plain = sum.stripTrailingZeros();
        return plain.scale() < 0 ? plain.setScale(0) : plain;
    }

    /**
     * Attempts DynamoDB throttled, retried or not: each one is a request it refused for lack of a partition's (or
     * the table's) capacity. A call that ended well can count some; a 503 counts at least one.
     */
    public synchronized int throttles() {
        return (int) calls.stream().filter(AuditedCall::wasThrottled).count();
    }

    /** The partition key value each request addressed, in order: what proves a request stayed in its tenant. */
    public synchronized List<String> partitions() {
        return calls.stream().map(AuditedCall::partition).toList();
    }

    /** Operation names in the order they were sent, e.g. {@code [GetItem, PutItem]}. */
    public synchronized List<String> operations() {
        return calls.stream().map(AuditedCall::operation).toList();
    }
}
