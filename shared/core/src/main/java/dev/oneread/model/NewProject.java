package dev.oneread.model;

/** What a caller may choose when creating a project; the service picks the id and the timestamps. */
public record NewProject(String name, String description, ProjectStatus status) {}
