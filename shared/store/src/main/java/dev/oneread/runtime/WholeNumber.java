package dev.oneread.runtime;

import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * A whole-number setting, read exactly as template.yaml's AllowedPattern for its parameter takes it: decimal digits,
 * no sign, no space, no leading zero, no fraction or exponent (CloudFormation's Number type would take {@code 1.5} and
 * {@code 1e3}, so these parameters are Strings with a pattern; TemplateValuesTest compares the two on samples).
 *
 * <pre>{@code long quota = WholeNumber.PROJECT_QUOTA.parse("PROJECT_QUOTA", "10000");}</pre>
 *
 * @param min the smallest value taken
 * @param max the largest value taken
 */
public record WholeNumber(long min, long max) {
    /** ProjectQuota: a workspace's project count is a Java int. */
    public static final WholeNumber PROJECT_QUOTA = new WholeNumber(1, Integer.MAX_VALUE);

    /** IndexShards: 1 (one partition per index key) to the codec's 99 shards. */
    public static final WholeNumber INDEX_SHARDS = new WholeNumber(1, 99);

    /** HotTenantProjectsThreshold and HotTenantBytesThreshold: up to 18 digits, well inside a long. */
    public static final WholeNumber THRESHOLD = new WholeNumber(1, 999_999_999_999_999_999L);

    /** Durations the template sets itself (WORKSPACE_REUSE_MILLIS, PURGE_FENCE_SECONDS): 0 or more. */
    public static final WholeNumber NOT_NEGATIVE = new WholeNumber(0, Long.MAX_VALUE);

    private static final Pattern DIGITS = Pattern.compile("0|[1-9][0-9]*");

    /**
     * @param variable the environment variable, named in the error
     * @throws InvalidSettingException naming the variable, the value and the rule, for the function's init error line
     */
    public long parse(String variable, String raw) {
        if (DIGITS.matcher(raw).matches()) {
            BigInteger value = new BigInteger(raw);
            if (value.compareTo(BigInteger.valueOf(min)) >= 0 && value.compareTo(BigInteger.valueOf(max)) <= 0) {
                return value.longValueExact();
            }
        }
        throw new InvalidSettingException(variable + " is '" + raw + "': " + rule());
    }

    /** The rule in words: {@code a whole number from 1 to 99}. */
    public String rule() {
        return "not a whole number from " + min + " to " + max;
    }
}
