package dev.oneread.store.calls;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * The DynamoDB calls one invocation made, each as an {@link AuditedCall}, filled by {@link CallAudit}: how many,
 * the capacity they consumed, what each addressed. One tally per invocation; thread-safe because a fan-out
 * read reports from the query pool's threads ({@link QueryPool}), one per partition. It carries the invocation's
 * {@link InvocationDeadline} to the store, which keeps the two apart: the audit records, the deadline limits.
 */
public final class CallTally {
    private final InvocationDeadline deadline;
    private final List<AuditedCall> calls = new ArrayList<>();
    private int inFlight;
    private int maxInFlight;

    /** A tally with no deadline: for tests and tools. */
    public CallTally() {
        this(InvocationDeadline.none());
    }

    /** A tally for an invocation that must be done within {@code budget}: see {@link InvocationDeadline#in}. */
    public CallTally(Duration budget) {
        this(InvocationDeadline.in(budget));
    }

    /** A tally for the invocation whose time budget is {@code deadline}. */
    public CallTally(InvocationDeadline deadline) {
        this.deadline = deadline;
    }

    /** The invocation's time budget, which every call the store sends for this tally is limited to. */
    public InvocationDeadline deadline() {
        return deadline;
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
