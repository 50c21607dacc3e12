package dev.oneread.store.exceptions;

/**
 * Base of the store's domain exceptions: the only exceptions that leave the store. SDK exceptions are
 * translated into these at the store boundary and mapped to HTTP in one place ({@code dev.oneread.http.Problems}).
 */
public abstract class StoreException extends RuntimeException {
    protected StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
