package dev.oneread.model;

import java.time.Instant;

/**
 * A workspace's project counts as the last stats job run left them: approximate between runs, by design (see
 * CreateProject's quota). {@code asOf} is when the run counted.
 */
public record WorkspaceStats(int active, int paused, int archived, int total, Instant asOf) {}
