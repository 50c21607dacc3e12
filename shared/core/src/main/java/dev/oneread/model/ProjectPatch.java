package dev.oneread.model;

/**
 * A change to a project: each field null when it is to stay as it is. {@code removeDescription} is the
 * explicit {@code "description": null} of a PATCH, which clears it.
 */
public record ProjectPatch(String name, String description, boolean removeDescription, ProjectStatus status) {
    public boolean isEmpty() {
        return name == null && description == null && !removeDescription && status == null;
    }
}
