package dev.oneread.store.exceptions;

import dev.oneread.keys.PrimaryKey;

/**
 * An item the store read, or was given, that it cannot decode: not one this API writes (written by hand, or by
 * another version). It carries the item's key and what is wrong with it, for the operator's log line and the
 * console's import report; a caller's response carries neither, only that an item could not be read.
 *
 * <pre>{@code throw new UndecodableItemException(key, "status is not one of ACTIVE, PAUSED, ARCHIVED");}</pre>
 */
public final class UndecodableItemException extends StoreException {
    private final transient PrimaryKey key;
    private final String reason;

    public UndecodableItemException(PrimaryKey key, String reason) {
        super("an item could not be read", null);
        this.key = key;
        this.reason = reason;
    }

    /** The key of the item, as stored. */
    public PrimaryKey key() {
        return key;
    }

    /** What is wrong with it, naming the attribute: for the operator and the developer, never for a caller. */
    public String reason() {
        return reason;
    }
}
