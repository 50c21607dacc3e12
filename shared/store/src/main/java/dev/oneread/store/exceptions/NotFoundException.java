package dev.oneread.store.exceptions;

/** The workspace or project does not exist (or, to the caller, must look as if it did not). */
public final class NotFoundException extends StoreException {
    public NotFoundException(String what) {
        super(what + " not found", null);
    }
}
