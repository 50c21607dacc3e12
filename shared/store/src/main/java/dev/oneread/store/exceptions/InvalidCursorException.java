package dev.oneread.store.exceptions;

/** A pagination position that does not belong to this list; the caller sent it, so it is a 400. */
public final class InvalidCursorException extends StoreException {
    public InvalidCursorException(Throwable cause) {
        super("cursor is not valid for this list", cause);
    }
}
