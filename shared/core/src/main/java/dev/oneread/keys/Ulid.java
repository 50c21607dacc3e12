package dev.oneread.keys;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;

/**
 * A monotonic ULID generator: 48 bits of milliseconds, then 80 random bits, in Crockford base32.
 *
 * <p>Within one millisecond the random part is incremented instead of redrawn, so ids from one generator
 * are strictly increasing even when many are made at once. One generator per execution environment is
 * enough: Lambda runs one request at a time per environment, and the lock covers the local runner.
 *
 * <pre>{@code ProjectId id = Ulid.generator().next();}</pre>
 */
public final class Ulid {
    static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final int LENGTH = 26;
    private static final long MAX_TIME = (1L << 48) - 1;
    private static final Ulid SHARED = new Ulid(Clock.systemUTC(), SnapshotSafeRandom.create());

    private final Clock clock;
    private final SecureRandom random;
    private long lastMillis = -1;
    // 80 random bits as 16 high bits + 64 low bits, so that incrementing carries correctly.
    private int randomHigh;
    private long randomLow;

    Ulid(Clock clock, SecureRandom random) {
        this.clock = clock;
        this.random = random;
    }

    /** The generator shared by this execution environment. */
    public static Ulid generator() {
        return SHARED;
    }

    /** A generator with its own clock, for tests that need to control time. */
    public static Ulid withClock(Clock clock) {
        return new Ulid(clock, new SecureRandom());
    }

    public synchronized ProjectId next() {
        long now = clock.millis();
        if (now > lastMillis) {
            lastMillis = now;
            randomHigh = random.nextInt() & 0xFFFF;
            randomLow = random.nextLong();
        } else if (++randomLow == 0 && ++randomHigh > 0xFFFF) {
            // 2^80 ids in one millisecond: borrow the next millisecond rather than wrap around.
            lastMillis++;
            randomHigh = 0;
        }
        return new ProjectId(encode(lastMillis, randomHigh, randomLow));
    }

    static String encode(long millis, int high16, long low64) {
        if (millis < 0 || millis > MAX_TIME) {
            throw new IllegalArgumentException("timestamp out of ULID range");
        }
        char[] out = new char[LENGTH];
        // 10 characters of time (50 bits, the top 2 always zero).
        for (int i = 9; i >= 0; i--) {
            out[i] = ALPHABET[(int) (millis & 31)];
            millis >>>= 5;
        }
        // 16 characters of randomness (80 bits): walk the 80-bit number 5 bits at a time from the end.
        long low = low64;
        long high = high16 & 0xFFFFL;
        for (int i = LENGTH - 1; i >= 10; i--) {
            out[i] = ALPHABET[(int) (low & 31)];
            low = (low >>> 5) | ((high & 31) << 59);
            high >>>= 5;
        }
        return new String(out);
    }

    public static boolean isCanonical(String value) {
        if (value == null || value.length() != LENGTH || value.charAt(0) > '7') {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            if (Arrays.binarySearch(ALPHABET, value.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * When a ULID was made: its 48-bit millisecond time.
     *
     * @throws IllegalArgumentException for a string that is not a canonical ULID
     */
    public static Instant timeOf(String ulid) {
        if (!isCanonical(ulid)) {
            throw new IllegalArgumentException("not a ULID");
        }
        return Instant.ofEpochMilli(timestampMillis(ulid));
    }

    static long timestampMillis(String canonical) {
        long millis = 0;
        for (int i = 0; i < 10; i++) {
            millis = (millis << 5) | Arrays.binarySearch(ALPHABET, canonical.charAt(i));
        }
        return millis;
    }
}
