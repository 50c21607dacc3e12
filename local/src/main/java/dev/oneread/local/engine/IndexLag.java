package dev.oneread.local.engine;

import java.time.Duration;

/**
 * How long the local engine's global secondary indexes trail their table: a Query or Scan of an index answers as the
 * table stood {@code delay} ago, as DynamoDB's asynchronously updated indexes do. {@link #DYNAMODB}, the default, is
 * 500 ms: DynamoDB propagates a write to its indexes "within 1 second" under normal conditions (AWS Knowledge Center,
 * "GSI missing items"), typically a fraction of one, so half a second is a lag every reader meets, under the bound
 * the product's readers allow for. {@link #OFF} reads every index as dynalite keeps it, inside the write. The
 * engine's {@code --index-lag} option, in milliseconds.
 *
 * <pre>{@code IndexLag lag = IndexLag.parse("1000"); // a second}</pre>
 */
public record IndexLag(Duration delay) {
    public static final IndexLag OFF = new IndexLag(Duration.ZERO);
    public static final IndexLag DYNAMODB = new IndexLag(Duration.ofMillis(500));

    public IndexLag {
        if (delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("index lag: milliseconds >= 0 (0 = off), not " + delay);
        }
    }

    /** Parses the option's text: whole milliseconds, such as {@code 500}, {@code 0} or {@code 1000}. */
    public static IndexLag parse(String text) {
        try {
            return new IndexLag(Duration.ofMillis(Long.parseLong(text.strip())));
        } catch (NumberFormatException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "index lag: whole milliseconds >= 0 (500 = DynamoDB's typical lag, 0 = off), not " + text);
        }
    }

    public boolean enabled() {
        return !delay.isZero();
    }

    /** The lag as the engine's option takes it: whole milliseconds. */
    public String optionText() {
        return Long.toString(delay.toMillis());
    }

    @Override
    public String toString() {
        return enabled() ? "index lag " + delay.toMillis() + " ms" : "index lag off";
    }
}
