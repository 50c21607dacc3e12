package dev.oneread.model;

/**
 * How many projects a workspace may have: the deployment's default (the template's ProjectQuota), or the
 * workspace's own {@code settings.projectQuota} where its plan raises it. Checked against the counts the stats job
 * last wrote, read with the workspace item CreateProject reads anyway, so the check costs no call. It is therefore
 * approximate: between two stats runs a workspace can pass its quota by the projects created in that interval. A
 * counter written by every create would make it exact, but would put a hot tenant's whole write rate on one item,
 * which tops out at 1,000 writes a second: the limit sharding exists to pass.
 *
 * <pre>{@code new ProjectQuota(10_000).exceededBy(workspace).ifPresent(limit -> ...);}</pre>
 */
public record ProjectQuota(int defaultLimit) {
    /** The setting a workspace's plan raises (or lowers) its quota with. */
    public static final String SETTING = "projectQuota";

    public ProjectQuota {
        if (defaultLimit < 1) {
            throw new IllegalArgumentException("ProjectQuota must be positive");
        }
    }

    /** The workspace's limit: its own setting if it is a positive whole number, else the default. */
    public int limitFor(Workspace workspace) {
        Object own = workspace.settings().get(SETTING);
        if (own instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) && n.longValue() >= 1) {
            return (int) Math.min(Integer.MAX_VALUE, n.longValue());
        }
        return defaultLimit;
    }

    /** True when the last counts reach the limit, so one more project would pass it. */
    public boolean exceededBy(Workspace workspace) {
        return workspace.stats() != null && workspace.stats().total() >= limitFor(workspace);
    }
}
