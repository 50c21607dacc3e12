package dev.oneread.store.exceptions;

/** A create lost to an item that already had the key: the conditional put's guard failed. */
public final class AlreadyExistsException extends StoreException {
    public AlreadyExistsException(String what, Throwable cause) {
        super(what + " already exists", cause);
    }
}
