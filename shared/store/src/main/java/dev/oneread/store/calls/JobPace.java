package dev.oneread.store.calls;

import dev.oneread.keys.SnapshotSafeRandom;
import dev.oneread.model.PartitionCapacity;
import dev.oneread.store.exceptions.StoreUnavailableException;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * The pace of one invocation of a job that walks a partition (the stats task, the purge, the migration, the
 * index backfill): the one place that says whether another page may start, in time and in capacity.
 *
 * <p><b>Time.</b> No page starts with less than {@link #STOP_MARGIN} left of the invocation: a page is a few calls,
 * each bounded by the client's timeouts, so the job stops between pages and its continuation goes on from there,
 * instead of Lambda ending it mid-page (and SQS redelivering it from the start, five times, into the DLQ).
 *
 * <p><b>Capacity.</b> A partition serves at most 3,000 read and 1,000 write units a second ({@link
 * PartitionCapacity#DYNAMODB}), the tenant's own
 * requests included. A job takes at most its {@link Share} of that, per partition: a token bucket per partition
 * key value, read and write apart, holding at most one second of the share (as DynamoDB's own partition buckets
 * do), refilled at the share's rate and debited by what each call really consumed, as DynamoDB reported it in
 * ConsumedCapacity (every job request asks TOTAL; the {@link CallTally} keeps it). A page starts only while the
 * partition's bucket is not in debt; a page that took more than was left puts it in debt, and the next waits it
 * out. TOTAL counts an item's index writes too, so a job paces itself a little below its share, never above.
 *
 * <p><b>Throttled anyway</b> (the tenant's own load took the rest): the client's retries come first; a call
 * that still fails on throttling halves the job's rate on that partition and is tried again after a backoff, for
 * as long as the invocation has time, instead of failing the task.
 *
 * <pre>{@code
 * JobPace pace = new JobPace(share);
 * while (pace.mayStart(partition, tally)) { QueryResponse page = pace.call(partition, tally, () -> query()); ... }
 * }</pre>
 */
public final class JobPace {
    /**
     * Start no page with less than this left of the invocation: a page is one query and up to ten batch writes (or
     * 25 moves of two calls), each bounded by the client's attempt timeouts, and the continuation's send after it.
     */
    public static final Duration STOP_MARGIN = Duration.ofSeconds(5);

    /** Operations that consume read units; every other audited call writes. */
    private static final Set<String> READS = Set.of("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems");

    /** The audit's partition for a Scan, which reads the table's partitions in turn: one bucket for all of them. */
    public static final String SCAN = "(scan)";

    /** The longest a throttled call waits before it is tried again; then the time check decides. */
    static final Duration BACKOFF_CAP = Duration.ofSeconds(2);

    static final Duration BACKOFF_BASE = Duration.ofMillis(50);
    /**
     * The jitter's source, reseeded after every SnapStart restore: ThreadLocalRandom's state would be restored the
     * same in every copy of a snapshot, and copies retrying in step is what jitter is for avoiding.
     */
    private static final SecureRandom JITTER = SnapshotSafeRandom.create();

    /**
     * A job's rate on one partition: read and write units a second.
     *
     * @param readUnitsPerSecond  at most this many read units a second on one partition key value
     * @param writeUnitsPerSecond at most this many write units a second on one partition key value
     */
    public record Share(double readUnitsPerSecond, double writeUnitsPerSecond) {
        /**
         * The template's default JobPartitionShare: a quarter of a partition. A hot tenant is one whose own load
         * comes near one partition's capacity; a job taking a quarter leaves it three quarters, and still counts a
         * million projects (about 16 units a 499-item page) in under two minutes.
         */
        public static final double DEFAULT_FRACTION = 0.25;

        public Share {
            if (!(readUnitsPerSecond > 0) || !(writeUnitsPerSecond > 0)) {
                throw new IllegalArgumentException("a job's share of a partition is more than nothing");
            }
        }

        /** {@code fraction} of a partition's read and write capacity ({@link PartitionCapacity#DYNAMODB}): 0 (exclusive) to 1. */
        public static Share of(double fraction) {
            if (!(fraction > 0) || fraction > 1) {
                throw new IllegalArgumentException("a job's share of a partition is more than 0, at most 1");
            }
            PartitionCapacity share = PartitionCapacity.DYNAMODB.times(fraction);
            return new Share(share.readUnitsPerSecond(), share.writeUnitsPerSecond());
        }
    }

    /** One partition's bucket, in units; its capacity is one second of its rate. */
    private static final class Bucket {
        double rate;
        double units;
        long at;

        Bucket(double rate, long now) {
            this.rate = rate;
            this.units = rate;
            this.at = now;
        }

        void refill(long now) {
            units = Math.min(rate, units + rate * (now - at) / 1e9);
            at = now;
        }

        /** Nanoseconds until the bucket is out of debt. */
        long debtNanos(long now) {
            refill(now);
            return units >= 0 ? 0 : (long) Math.ceil(-units / rate * 1e9);
        }
    }

    private final Share share;
    private final Map<String, Bucket> reads = new HashMap<>();
    private final Map<String, Bucket> writes = new HashMap<>();
    /** How many of the tally's calls have been debited. */
    private int debited;

    private long waitedNanos;
    private int backoffs;

    public JobPace(Share share) {
        this.share = share;
    }

    /** Whether the invocation has time to start another page: what every job checks between pages. */
    public static boolean hasTime(CallTally tally) {
        return tally.deadline().remaining().compareTo(STOP_MARGIN) > 0;
    }

    /**
     * Whether a page on {@code partition} may start: after waiting until the job's buckets for it are out of
     * debt, if the invocation has time for that and for the page. False: stop here, and go on in a continuation.
     */
    public boolean mayStart(String partition, CallTally tally) {
        debit(tally);
        long now = System.nanoTime();
        long wait = Math.max(
                bucket(reads, partition, share.readUnitsPerSecond(), now).debtNanos(now),
                bucket(writes, partition, share.writeUnitsPerSecond(), now).debtNanos(now));
        if (tally.deadline().remaining().minusNanos(wait).compareTo(STOP_MARGIN) <= 0) {
            return false;
        }
        pause(wait);
        return true;
    }

    /**
     * One call on {@code partition}, tried again while it fails on throttling and the invocation has time: each
     * time the job's rate on that partition halves, and the call waits a backoff with full jitter.
     *
     * @throws StoreUnavailableException when it is throttled still with no time left, or fails otherwise
     */
    public <T> T call(String partition, CallTally tally, Supplier<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.get();
            } catch (StoreUnavailableException e) {
                if (!throttled(e) || !hasTime(tally)) {
                    throw e;
                }
                backoffs++;
                debit(tally);
                long now = System.nanoTime();
                for (Map<String, Bucket> buckets : List.of(reads, writes)) {
                    Bucket bucket = buckets.get(partition);
                    if (bucket != null) {
                        bucket.refill(now);
                        bucket.rate = Math.max(bucket.rate / 2, MIN_RATE);
                        bucket.units = Math.min(bucket.units, bucket.rate);
                    }
                }
                pause(backoff(attempt).toNanos());
            }
        }
    }

    /** The least a halving leaves: one unit a second still moves a job forward. */
    private static final double MIN_RATE = 1;

    /**
     * How long the job's buckets stay in debt: a job that stops here sends its continuation delayed by this much,
     * so that a chain of invocations keeps the pace one long invocation would (each starts with fresh buckets).
     */
    public Duration debt() {
        long now = System.nanoTime();
        long nanos = 0;
        for (Map<String, Bucket> buckets : List.of(reads, writes)) {
            for (Bucket bucket : buckets.values()) {
                nanos = Math.max(nanos, bucket.debtNanos(now));
            }
        }
        return Duration.ofNanos(nanos);
    }

    /** Time this pace made its job wait, for its log line. */
    public Duration waited() {
        return Duration.ofNanos(waitedNanos);
    }

    /** Full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter"): random up to base x 2^attempt, capped. */
    public static Duration backoff(int attempt) {
        long ceiling = Math.min(BACKOFF_CAP.toMillis(), BACKOFF_BASE.toMillis() << Math.min(attempt, 20));
        return Duration.ofMillis(JITTER.nextLong(ceiling + 1));
    }

    /** Calls it tried again after a throttle that the client's retries did not absorb. */
    public int backoffs() {
        return backoffs;
    }

    /** Whether a call failed on throttling after the client's own retries. */
    public static boolean throttled(StoreUnavailableException e) {
        return e.getCause() instanceof DynamoDbException cause && cause.isThrottlingException();
    }

    /** Debits every call the tally recorded since the last debit, from its partition's bucket. */
    private void debit(CallTally tally) {
        List<AuditedCall> calls = tally.auditedCalls();
        long now = System.nanoTime();
        for (int i = debited; i < calls.size(); i++) {
            AuditedCall call = calls.get(i);
            BigDecimal units = call.capacity();
            if (units == null) {
                continue;
            }
            String partition = call.partition() == null ? SCAN : call.partition();
            Bucket bucket = READS.contains(call.operation())
                    ? bucket(reads, partition, share.readUnitsPerSecond(), now)
                    : bucket(writes, partition, share.writeUnitsPerSecond(), now);
            bucket.refill(now);
            bucket.units -= units.doubleValue();
        }
        debited = calls.size();
    }

    private static Bucket bucket(Map<String, Bucket> buckets, String partition, double rate, long now) {
        return buckets.computeIfAbsent(partition, p -> new Bucket(rate, now));
    }

    private void pause(long nanos) {
        if (nanos <= 0) {
            return;
        }
        waitedNanos += nanos;
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
