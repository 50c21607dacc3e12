package dev.oneread.store.exceptions;

/** A request with this Idempotency-Key is still being processed: the caller should retry shortly. */
public final class IdempotencyInProgressException extends StoreException {
    public IdempotencyInProgressException() {
        super("a request with this Idempotency-Key is still in progress; retry shortly", null);
    }
}
