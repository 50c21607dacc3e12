package dev.oneread.model;

import dev.oneread.keys.WorkspaceId;
import java.util.Map;

/**
 * What a caller sends to create a workspace.
 *
 * @param projectQuota the workspace's own project quota, set by an operator; null for the deployment's default
 */
public record NewWorkspace(WorkspaceId id, String name, Map<String, Object> settings, Integer projectQuota) {
    /** A workspace with the deployment's default quota. */
    public NewWorkspace(WorkspaceId id, String name, Map<String, Object> settings) {
        this(id, name, settings, null);
    }
}
