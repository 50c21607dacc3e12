package dev.oneread.store.exceptions;

/** The item exists but not at the version the caller's If-Match named: someone changed it first. */
public final class PreconditionFailedException extends StoreException {
    public PreconditionFailedException(String what, Throwable cause) {
        super(what + " has changed since the version given in If-Match", cause);
    }
}
