package dev.oneread.tests.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A function's clock that moves only when the test moves it: how a test lets time pass (a Retry-After, a purge's
 * fence) as an event, in no time, instead of waiting it out on a busy machine. It starts at the real time.
 *
 * <pre>{@code MovableClock clock = new MovableClock(); clock.advance(Duration.ofSeconds(62));}</pre>
 */
public final class MovableClock extends Clock {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

    /** Moves the clock on to the real time, if that is later: where a test starts the moves it makes. */
    public void catchUp() {
        Instant real = Instant.now();
        now.updateAndGet(t -> real.isAfter(t) ? real : t);
    }

    /** Moves the clock on by {@code elapsed}. */
    public void advance(Duration elapsed) {
        now.updateAndGet(t -> t.plus(elapsed));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }
}
