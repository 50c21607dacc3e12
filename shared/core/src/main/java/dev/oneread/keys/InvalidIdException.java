package dev.oneread.keys;

/**
 * An identifier from outside failed validation, before it could reach a key.
 *
 * <p>The message names the kind of id and the rule, never the raw value: it ends up in a problem
 * response, and echoing attacker-controlled input is how keys and internal names leak.
 */
public final class InvalidIdException extends IllegalArgumentException {
    private final String field;

    public InvalidIdException(String field, String rule) {
        super(field + " " + rule);
        this.field = field;
    }

    /** The request field the id came from, e.g. {@code workspaceId}. */
    public String field() {
        return field;
    }
}
