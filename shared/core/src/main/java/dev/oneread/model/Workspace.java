package dev.oneread.model;

import dev.oneread.keys.WorkspaceId;
import java.time.Instant;
import java.util.Map;

/**
 * A tenant: its display name and free-form settings (a JSON object stored as a DynamoDB map).
 * {@code version} starts at 1 and grows with every change; it is the basis of the ETag. {@code stats} are the
 * counts the stats job last wrote (null before its first run); a job's write does not change the version.
 * {@code projectQuota} is the workspace's own project quota, which only an operator sets (null: the deployment's
 * default); it is kept apart from {@code settings}, which the tenant writes.
 */
public record Workspace(
        WorkspaceId id,
        String name,
        Map<String, Object> settings,
        Instant createdAt,
        Instant updatedAt,
        long version,
        WorkspaceStats stats,
        Integer projectQuota) {
    public Workspace {
        settings = settings == null ? Map.of() : settings;
    }

    /** A workspace the stats job has not counted yet, with the deployment's default quota. */
    public Workspace(
            WorkspaceId id,
            String name,
            Map<String, Object> settings,
            Instant createdAt,
            Instant updatedAt,
            long version) {
        this(id, name, settings, createdAt, updatedAt, version, null, null);
    }
}
