package dev.oneread.model;

import dev.oneread.keys.WorkspaceId;
import java.time.Instant;
import java.util.Map;

/**
 * A tenant: its display name and free-form settings (a JSON object stored as a DynamoDB map).
 * {@code version} starts at 1 and grows with every change; it is the basis of the ETag.
 */
public record Workspace(
        WorkspaceId id, String name, Map<String, Object> settings, Instant createdAt, Instant updatedAt, long version) {
    public Workspace {
        settings = settings == null ? Map.of() : settings;
    }
}
