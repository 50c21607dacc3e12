package dev.oneread.tests.support;

/**
 * How many trials a randomized test runs (a fresh seed each run, printed in every failure): all it asks for, or the
 * share the system property {@code trials.share} gives. The full suite, and so {@code .ci/run}, runs them all; the
 * fast loop ({@code -Pfast}) runs a quarter, as property-based testing tools let a developer's loop run fewer tries
 * than CI (jqwik's {@code tries}). Runs add up: every run draws new interleavings.
 *
 * <pre>{@code for (int trial = 0; trial < Trials.of(100); trial++) { ... }}</pre>
 */
public final class Trials {
    /** The share of each randomized test's trials to run, above 0 and at most 1 (default 1: all of them). */
    public static final String SHARE_PROPERTY = "trials.share";

    private Trials() {}

    /** {@code all} trials, or the configured share of them, rounded up: never none. */
    public static int of(int all) {
        String text = System.getProperty(SHARE_PROPERTY, "1");
        double share;
        try {
            share = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(SHARE_PROPERTY + " must be a number above 0 and at most 1: " + text, e);
        }
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException(SHARE_PROPERTY + " must be above 0 and at most 1: " + text);
        }
        return (int) Math.ceil(all * share);
    }
}
