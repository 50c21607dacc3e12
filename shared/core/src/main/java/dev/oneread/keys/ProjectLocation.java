package dev.oneread.keys;

import java.util.List;

/**
 * Where a project lives, and where it may still live while its workspace moves into shards: the keys to try,
 * in order. Outside a move there is one, its home (its shard, or its workspace's partition). During a move the
 * unsharded copy comes first, because it is the current one for as long as it exists, then the home.
 *
 * <pre>{@code ProjectLocation location = plan.locate(WorkspaceId.of("acme"), projectId);}</pre>
 */
public record ProjectLocation(List<PrimaryKey> keys) {
    public ProjectLocation {
        keys = List.copyOf(keys);
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("a project location needs at least one key");
        }
    }

    /** A project that lives at one key only. */
    public static ProjectLocation at(PrimaryKey home) {
        return new ProjectLocation(List.of(home));
    }

    /** A project of a workspace being moved: still at {@code source}, or already at {@code home}. */
    public static ProjectLocation moving(PrimaryKey source, PrimaryKey home) {
        return new ProjectLocation(List.of(source, home));
    }

    /** Where the project lives once any move is over, and where a new one is written. */
    public PrimaryKey home() {
        return keys.get(keys.size() - 1);
    }

    /**
     * True for a key tried after another: the move may have copied the project there a moment ago, just before
     * deleting it where it was, so a read there must be strongly consistent to see that copy.
     */
    public boolean readConsistently(PrimaryKey key) {
        return keys.indexOf(key) > 0;
    }

    /** The keys after {@code key}: where the move may already have copied a project found at {@code key}. */
    public List<PrimaryKey> after(PrimaryKey key) {
        int index = keys.indexOf(key);
        if (index < 0) {
            throw new IllegalArgumentException("not a key of this location");
        }
        return keys.subList(index + 1, keys.size());
    }
}
