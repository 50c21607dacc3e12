package dev.oneread.model;

import dev.oneread.keys.WorkspaceId;
import java.util.Map;

/** What a caller sends to create a workspace. */
public record NewWorkspace(WorkspaceId id, String name, Map<String, Object> settings) {}
