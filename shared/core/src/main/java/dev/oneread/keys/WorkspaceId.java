package dev.oneread.keys;

import java.util.regex.Pattern;

/**
 * A workspace slug, chosen at creation: lower-case letters, digits and inner hyphens, 1 to 63 characters.
 *
 * <p>The allowlist is what keeps {@code #} (the key separator) out of every key: {@code acme#01} would
 * otherwise alias shard 01 of workspace {@code acme}.
 *
 * <pre>{@code WorkspaceId acme = WorkspaceId.of("acme");}</pre>
 */
public record WorkspaceId(String value) {
    /** A slug: lowercase letters, digits and inner hyphens, 1-63 characters (a DNS label). */
    public static final String SLUG_SYNTAX = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";

    /**
     * Slugs separated by single spaces, {@code acme globex}: the {@code workspaces} claim as the API reads it (Caller)
     * and as the user pool's trigger writes it (AddWorkspacesClaim), so that the two can never disagree.
     */
    public static final String SLUG_LIST_SYNTAX = SLUG_SYNTAX + "(?: " + SLUG_SYNTAX + ")*";

    private static final Pattern SLUG = Pattern.compile("^" + SLUG_SYNTAX + "$");

    public WorkspaceId {
        if (value == null || !SLUG.matcher(value).matches()) {
            throw new InvalidIdException("workspaceId", "must be 1-63 lower-case letters, digits or inner hyphens");
        }
    }

    public static WorkspaceId of(String value) {
        return new WorkspaceId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
