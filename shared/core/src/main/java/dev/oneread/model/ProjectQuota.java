package dev.oneread.model;

/**
 * How many projects a workspace may have: the deployment's default (the template's ProjectQuota), or the
 * workspace's own {@code projectQuota} where an operator raised (or lowered) it. It is never read from
 * {@code settings}, which the tenant itself writes: a limit the tenant could change would be no limit.
 *
 * <p>Checked against the counts the stats job last wrote, read with the workspace item CreateProject reads anyway,
 * so the check costs no call. It is therefore approximate: between two stats runs a workspace can pass its quota by the projects created in that interval. A
 * counter written by every create would make it exact, but would put a hot tenant's whole write rate on one item,
 * which tops out at 1,000 writes a second: the limit sharding exists to pass.
 *
 * <pre>{@code new ProjectQuota(10_000).exceededBy(workspace).ifPresent(limit -> ...);}</pre>
 */
public record ProjectQuota(int defaultLimit) {
    /** The rule for a limit, in words, for error details. */
    public static final String RULE = "a whole number from 1 to " + Integer.MAX_VALUE;

    public ProjectQuota {
        if (!isLimit(defaultLimit)) {
            throw new IllegalArgumentException("ProjectQuota must be positive");
        }
    }

    /** Whether a number is a limit a workspace may have: the default's rule, and a workspace's own. */
    public static boolean isLimit(long limit) {
        return limit >= 1 && limit <= Integer.MAX_VALUE;
    }

    /** The workspace's limit: its own, where an operator set one, else the default. */
    public int limitFor(Workspace workspace) {
        return workspace.projectQuota() != null ? workspace.projectQuota() : defaultLimit;
    }

    /** True when the last counts reach the limit, so one more project would pass it. */
    public boolean exceededBy(Workspace workspace) {
        return workspace.stats() != null && workspace.stats().total() >= limitFor(workspace);
    }
}
