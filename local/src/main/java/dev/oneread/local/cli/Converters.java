package dev.oneread.local.cli;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.engine.IndexLag;
import dev.oneread.local.engine.PartitionLimits;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** The option types of the runner's commands, each refusing a bad value with a message for the user. */
public final class Converters {
    private static final Pattern TTL = Pattern.compile("^([1-9][0-9]{0,6})([smhd])$");

    private Converters() {}

    /** A workspace slug, checked by {@link WorkspaceId} itself. */
    public static final class Workspace implements ITypeConverter<WorkspaceId> {
        @Override
        public WorkspaceId convert(String value) {
            try {
                return WorkspaceId.of(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value + "' is not a workspace id: " + e.getMessage());
            }
        }
    }

    /** {@code 90s}, {@code 15m}, {@code 1h}, {@code 2d}. */
    public static final class Ttl implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Matcher m = TTL.matcher(value);
            if (!m.matches()) {
                throw new TypeConversionException("'" + value + "' is not a duration such as 90s, 15m, 1h or 2d");
            }
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
    }

    /** A TCP port; 0 lets the system pick a free one. */
    public static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return inRange(value, 0, 65535, "a port from 0 to 65535");
        }
    }

    /** A scale of DynamoDB's partition limits: {@code 1}, {@code 0} (off), {@code 0.05}. */
    public static final class Limits implements ITypeConverter<PartitionLimits> {
        @Override
        public PartitionLimits convert(String value) {
            try {
                return PartitionLimits.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(
                        "'" + value + "' is not a scale >= 0 (1 = DynamoDB's limits, 0 = off)");
            }
        }
    }

    /** An index lag in whole milliseconds: {@code 500}, {@code 0} (off), {@code 1000}. */
    public static final class Lag implements ITypeConverter<IndexLag> {
        @Override
        public IndexLag convert(String value) {
            try {
                return IndexLag.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("'" + value
                        + "' is not a lag in whole milliseconds >= 0 (500 = DynamoDB's typical lag, 0 = off)");
            }
        }
    }

    /** A count of at least one. */
    public static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return inRange(value, 1, Integer.MAX_VALUE, "a positive integer");
        }
    }

    private static int inRange(String value, int low, int high, String what) {
        try {
            int n = Integer.parseInt(value);
            if (n >= low && n <= high) {
                return n;
            }
        } catch (NumberFormatException notANumber) {
            // the same message as out of range
        }
        throw new TypeConversionException("'" + value + "' is not " + what);
    }
}
