package dev.oneread.keys;

/** A decoded {@code Detail} value: what kind of item this is within its workspace's collection. */
public sealed interface SortKey {

    /** {@code META}: the workspace item itself. */
    record WorkspaceMeta() implements SortKey {
    }

    /** {@code PROJ#<ulid>}: one project. */
    record ProjectEntry(ProjectId projectId) implements SortKey {
    }
}
