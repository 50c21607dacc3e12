package dev.oneread.model;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import java.time.Instant;

/** A project of one workspace. {@code description} is null when none was given. */
public record Project(
        ProjectId id,
        WorkspaceId workspaceId,
        String name,
        String description,
        ProjectStatus status,
        Instant createdAt,
        Instant updatedAt,
        long version) {}
