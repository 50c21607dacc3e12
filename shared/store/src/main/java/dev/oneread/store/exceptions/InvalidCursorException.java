package dev.oneread.store.exceptions;

/**
 * A pagination cursor that does not belong to this list, the one bad-cursor exception: one this service did not
 * seal, sealed for another workspace or route, expired ({@code Cursors}), or a position that does not fit the
 * list's partitions (the store). The caller sent it, so it is a 400.
 */
public final class InvalidCursorException extends StoreException {
    public InvalidCursorException(Throwable cause) {
        super("cursor is not valid for this list", cause);
    }

    /** A cursor refused by its seal: nothing more to say about why, to a caller who may be probing. */
    public InvalidCursorException() {
        this(null);
    }
}
