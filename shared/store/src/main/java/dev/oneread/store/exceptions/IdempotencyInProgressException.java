package dev.oneread.store.exceptions;

import java.time.Duration;

/**
 * A request with this Idempotency-Key is still being processed, or its outcome is not known yet: the caller
 * should retry once its claim can be taken over, {@link #retryAfter()} from now.
 */
public final class IdempotencyInProgressException extends StoreException {
    private final Duration retryAfter;

    public IdempotencyInProgressException(Duration retryAfter) {
        super("a request with this Idempotency-Key is still in progress; retry after the Retry-After delay", null);
        this.retryAfter = retryAfter.isNegative() ? Duration.ZERO : retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
