package dev.oneread.store.exceptions;

/** A create refused because the workspace has reached its project quota (by its last counts). */
public final class QuotaExceededException extends StoreException {
    public QuotaExceededException(String detail) {
        super(detail, null);
    }
}
