package dev.oneread.keys;

import java.util.Optional;

/** A decoded {@code Detail} value: what kind of item this is within its workspace's collection. */
public sealed interface SortKey {

    /** The project this sort key names; empty for the workspace item. */
    Optional<ProjectId> project();

    /** {@code META}: the workspace item itself. */
    record WorkspaceMeta() implements SortKey {
        @Override
        public Optional<ProjectId> project() {
            return Optional.empty();
        }
    }

    /** {@code PROJ#<ulid>}: one project. */
    record ProjectEntry(ProjectId projectId) implements SortKey {
        @Override
        public Optional<ProjectId> project() {
            return Optional.of(projectId);
        }
    }
}
