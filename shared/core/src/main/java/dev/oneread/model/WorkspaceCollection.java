package dev.oneread.model;

import java.util.List;
import java.util.Optional;

/**
 * One page of a workspace's item collection: the workspace item, if it fell on this page, and the projects
 * that did. {@code next} is where the next page starts, absent on the last page.
 */
public record WorkspaceCollection(Optional<Workspace> workspace, List<Project> projects, Optional<ListPosition> next) {
    public WorkspaceCollection {
        projects = List.copyOf(projects);
    }
}
