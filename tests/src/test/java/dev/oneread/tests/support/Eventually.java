package dev.oneread.tests.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The one way a test waits for an eventual result (a queue's worker to apply its tasks, a purge to finish): it asks
 * again every {@link #POLL} until {@code done} or the limit, and the assertions after it say what was missing. Races
 * are ordered with latches, never with this.
 *
 * <pre>{@code Eventually.await(() -> itemsOf(ws).isEmpty(), Duration.ofSeconds(30));}</pre>
 */
public final class Eventually {
    public static final Duration POLL = Duration.ofMillis(100);

    /**
     * The limit of a wait for an event that must come (a task's log line, a job's end): only a hang reaches it, not a
     * busy machine, so the wait never decides a test; the event does, and the assertions after it.
     */
    public static final Duration FAILSAFE = Duration.ofMinutes(5);

    private Eventually() {}

    public static void await(BooleanSupplier done, Duration limit) throws InterruptedException {
        await(done, limit, POLL);
    }

    /** Asking every {@code poll}: where the moment {@code done} turns true is itself measured. */
    public static void await(BooleanSupplier done, Duration limit, Duration poll) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(poll.toMillis());
        }
    }
}
