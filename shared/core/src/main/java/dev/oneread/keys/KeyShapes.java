package dev.oneread.keys;

/**
 * The codec's keys as the docs and the catalogue describe them: each key's shape, with its variable parts in braces
 * ({@code {workspaceId}}, a shard as {@code {nn}}). Only this package writes key strings, so the operations' key
 * conditions are written from these words, never spelled again.
 *
 * <pre>{@code "EntityRef = " + KeyShapes.WORKSPACE_PARTITION + " AND Detail = " + KeyShapes.META}</pre>
 */
public final class KeyShapes {
    /** A workspace's own partition, which holds its item and, unsharded, its projects. */
    public static final String WORKSPACE_PARTITION = "WS#{workspaceId}";
    /** One of a hot tenant's shards. */
    public static final String SHARD_PARTITION = "WS#{workspaceId}#{nn}";
    /** A project's partition: its workspace's, or for a hot tenant the shard its id goes to. */
    public static final String PROJECT_PARTITION = "WS#{workspaceId}[#{nn}]";
    /** The workspace item's sort key. */
    public static final String META = "META";
    /** A project's sort key. */
    public static final String PROJECT_SORT = "PROJ#{projectId}";
    /** A new project's sort key: the id is a ULID the create makes. */
    public static final String NEW_PROJECT_SORT = "PROJ#{ulid}";
    /** What every project's sort key begins with. */
    public static final String PROJECT_SORT_PREFIX = "PROJ#";
    /** GSI1's partition of a status, one of the index's write shards. */
    public static final String STATUS_INDEX_PARTITION = "STATUS#{status}#{nn}";
    /** GSI1's partition of the workspace registry, one of the index's write shards. */
    public static final String REGISTRY_INDEX_PARTITION = "WSREG#{nn}";

    private KeyShapes() {}
}
