package dev.oneread.store.exceptions;

/** Anything else DynamoDB rejected: a defect or a misconfiguration on our side, never the caller's. */
public final class StoreFailureException extends StoreException {
    public StoreFailureException(Throwable cause) {
        super("the data store rejected a request", cause);
    }
}
