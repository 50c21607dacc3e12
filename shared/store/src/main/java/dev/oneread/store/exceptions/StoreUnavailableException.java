package dev.oneread.store.exceptions;

/**
 * DynamoDB could not be reached, timed out, or kept throttling beyond the retry budget. Nothing was
 * acknowledged, so the caller may retry: a 503 with Retry-After.
 */
public final class StoreUnavailableException extends StoreException {
    public StoreUnavailableException(Throwable cause) {
        super("the data store is unavailable", cause);
    }
}
