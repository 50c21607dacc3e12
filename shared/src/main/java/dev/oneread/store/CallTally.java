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
    private int calls;
    private BigDecimal capacity = BigDecimal.ZERO;
    private final List<String> operations = new ArrayList<>();

    synchronized void recordCall(String operation) {
        calls++;
        operations.add(operation);
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

    /** Operation names in the order they were sent, e.g. {@code [GetItem, PutItem]}. */
    public synchronized List<String> operations() {
        return Collections.unmodifiableList(new ArrayList<>(operations));
    }
}
