package dev.oneread.model;

import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * The version a write expects to find, from the caller's {@code If-Match}: {@link #exactly} the one it read,
 * or {@link #any} existing version ({@code If-Match: *}, or a DELETE without If-Match). Either way the item
 * must exist: a versioned write never creates one.
 *
 * <pre>{@code store.updateProject(ws, id, patch, ExpectedVersion.exactly(3), now, tally);}</pre>
 */
public sealed interface ExpectedVersion permits ExpectedVersion.Any, ExpectedVersion.Exactly {

    static ExpectedVersion any() {
        return new Any();
    }

    /** @param version a version the service issued: 1 or more */
    static ExpectedVersion exactly(long version) {
        return new Exactly(version);
    }

    /** One of two answers: for any version, or for exactly {@code version}. */
    <R> R match(Supplier<R> any, LongFunction<R> exactly);

    /** True when any existing version will do: then a refused write can only mean that there is no item. */
    default boolean isAny() {
        return match(() -> true, version -> false);
    }

    /** Any existing version. */
    record Any() implements ExpectedVersion {
        @Override
        public <R> R match(Supplier<R> any, LongFunction<R> exactly) {
            return any.get();
        }
    }

    /** Exactly this version. */
    record Exactly(long version) implements ExpectedVersion {
        public Exactly {
            if (version < 1) {
                throw new IllegalArgumentException("versions start at 1");
            }
        }

        @Override
        public <R> R match(Supplier<R> any, LongFunction<R> exactly) {
            return exactly.apply(version);
        }
    }
}
