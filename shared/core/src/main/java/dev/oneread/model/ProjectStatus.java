package dev.oneread.model;

/** The life cycle of a project. New projects are {@link #ACTIVE} unless the caller says otherwise. */
public enum ProjectStatus {
    ACTIVE,
    PAUSED,
    ARCHIVED
}
