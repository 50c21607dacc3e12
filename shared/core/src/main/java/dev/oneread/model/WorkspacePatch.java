package dev.oneread.model;

import java.util.Map;

/**
 * A change to a workspace: each field null when it is to stay as it is.
 *
 * @param projectQuota a new project quota for the workspace; only an operator may send one
 */
public record WorkspacePatch(String name, Map<String, Object> settings, Integer projectQuota) {
    /** A change of the tenant's own fields. */
    public WorkspacePatch(String name, Map<String, Object> settings) {
        this(name, settings, null);
    }

    public boolean isEmpty() {
        return name == null && settings == null && projectQuota == null;
    }
}
