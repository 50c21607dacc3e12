package dev.oneread.model;

import java.time.Instant;

/**
 * A workspace's project counts as the last stats job run left them: approximate between runs, by design (see
 * CreateProject's quota). {@code asOf} is when the run counted.
 */
public record WorkspaceStats(int active, int paused, int archived, int total, Instant asOf) {
    /** The counts of two parts of one workspace (two shards): summed, as of the older of the two. */
    public WorkspaceStats plus(WorkspaceStats other) {
        return new WorkspaceStats(
                active + other.active,
                paused + other.paused,
                archived + other.archived,
                total + other.total,
                asOf.isBefore(other.asOf) ? asOf : other.asOf);
    }
}
