package dev.oneread.store.exceptions;

/** The Idempotency-Key was used before with a different request body. */
public final class IdempotencyMismatchException extends StoreException {
    public IdempotencyMismatchException() {
        super("this Idempotency-Key was used with a different request", null);
    }
}
