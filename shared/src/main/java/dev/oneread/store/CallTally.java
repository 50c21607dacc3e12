package dev.oneread.store;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The DynamoDB calls one invocation made: how many, the capacity they consumed, and the operations in
 * order. One tally per invocation, filled by {@link ReadAudit}; thread-safe because a fan-out read reports
 * from the SDK's completion threads.
 */
public final class CallTally {
    private final long deadlineNanos;
    private int calls;
    private BigDecimal capacity = BigDecimal.ZERO;
    private final List<String> operations = new ArrayList<>();
    private final List<String> partitions = new ArrayList<>();
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
    public CallTally(java.time.Duration budget) {
        this.deadlineNanos = budget == null ? Long.MAX_VALUE : System.nanoTime() + budget.toNanos();
    }

    /** Time left before the deadline; {@link java.time.Duration#ZERO} once it has passed. */
    public java.time.Duration remaining() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return java.time.Duration.ofDays(1);
        }
        return java.time.Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    synchronized void recordCall(String operation, String partition) {
        calls++;
        operations.add(operation);
        partitions.add(partition);
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

    synchronized void addCapacity(double units) {
        capacity = capacity.add(BigDecimal.valueOf(units));
    }

    /** DynamoDB requests sent, retries included: each one is a request DynamoDB saw (and may bill). */
    public synchronized int calls() {
        return calls;
    }

    /** Capacity units consumed, as DynamoDB reported them (reads and writes together). */
    public synchronized BigDecimal capacity() {
        BigDecimal plain = capacity.stripTrailingZeros();
        return plain.scale() < 0 ? plain.setScale(0) : plain;
    }

    /** The partition key value each request addressed, in order: what proves a request stayed in its tenant. */
    public synchronized List<String> partitions() {
        return Collections.unmodifiableList(new ArrayList<>(partitions));
    }

    /** Operation names in the order they were sent, e.g. {@code [GetItem, PutItem]}. */
    public synchronized List<String> operations() {
        return Collections.unmodifiableList(new ArrayList<>(operations));
    }
}
