package dev.oneread.model;

import java.util.Map;

/** A change to a workspace: each field null when it is to stay as it is. */
public record WorkspacePatch(String name, Map<String, Object> settings) {
    public boolean isEmpty() {
        return name == null && settings == null;
    }
}
