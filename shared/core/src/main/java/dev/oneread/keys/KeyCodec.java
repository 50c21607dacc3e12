package dev.oneread.keys;

/**
 * The one place that knows the key format of the table.
 *
 * <pre>
 *   EntityRef            Detail
 *   WS#acme              META                          the workspace
 *   WS#acme              PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6  one of its projects
 *   WS#acme#07           PROJ#...                      a project of a sharded (hot) workspace
 * </pre>
 *
 * <p>Every segment between separators is allowlisted (slug, ULID, two-digit shard), so no input can put
 * a {@code #} into a key, and each key decodes back to exactly one value. New entity types and
 * secondary-index keys get new prefixes or new attributes; existing keys never change shape.
 *
 * <pre>{@code PrimaryKey key = KeyCodec.projectKey(WorkspaceId.of("acme"), projectId);}</pre>
 */
public final class KeyCodec {
    /** Partition key attribute name, as declared in template.yaml. */
    public static final String PARTITION_KEY = "EntityRef";
    /** Sort key attribute name, as declared in template.yaml. */
    public static final String SORT_KEY = "Detail";

    private static final char SEPARATOR = '#';
    private static final String WORKSPACE_PREFIX = "WS" + SEPARATOR;
    private static final String META = "META";
    private static final String PROJECT_PREFIX = "PROJ" + SEPARATOR;
    private static final String IDEMPOTENCY_PREFIX = "IDEM" + SEPARATOR;
    /** Sorts after every project sort key: ULID characters are all below '~'. */
    private static final String AFTER_LAST_PROJECT = PROJECT_PREFIX + "~";
    /** The cross-workspace index (GSI) and its key attributes, as declared in template.yaml. */
    public static final String INDEX_NAME = "GSI1";

    public static final String INDEX_PARTITION_KEY = "GSI1PK";
    public static final String INDEX_SORT_KEY = "GSI1SK";
    private static final String STATUS_PREFIX = "STATUS" + SEPARATOR;
    private static final String REGISTRY_PREFIX = "WSREG" + SEPARATOR;
    /** The partition of the hot-tenant report: one entry per partition over the threshold, keyed by that partition. */
    private static final String HOT_TENANT_REPORT = "REPORT" + SEPARATOR + "hot-tenants";
    /** Shard numbers are written with two digits so that {@code #01}..{@code #99} sort as numbers. */
    public static final int MAX_SHARDS = 99;

    private KeyCodec() {}

    public static String workspacePartition(WorkspaceId workspaceId) {
        return WORKSPACE_PREFIX + workspaceId.value();
    }

    /** The partition of shard {@code shard} (1-based) of a hot workspace: {@code WS#acme#07}. */
    public static String shardPartition(WorkspaceId workspaceId, int shard) {
        if (shard < 1 || shard > MAX_SHARDS) {
            throw new IllegalArgumentException("shard must be 1.." + MAX_SHARDS);
        }
        return workspacePartition(workspaceId) + SEPARATOR + (shard < 10 ? "0" : "") + shard;
    }

    public static String workspaceSortKey() {
        return META;
    }

    public static String projectSortKey(ProjectId projectId) {
        return PROJECT_PREFIX + projectId.value();
    }

    /** The prefix every project's sort key starts with, for {@code begins_with} key conditions. */
    public static String projectSortKeyPrefix() {
        return PROJECT_PREFIX;
    }

    public static PrimaryKey workspaceKey(WorkspaceId workspaceId) {
        return new PrimaryKey(workspacePartition(workspaceId), META);
    }

    public static PrimaryKey projectKey(WorkspaceId workspaceId, ProjectId projectId) {
        return new PrimaryKey(workspacePartition(workspaceId), projectSortKey(projectId));
    }

    /**
     * The idempotency record of one request within its workspace's collection: {@code IDEM#<sha-256 hex>}.
     * It sorts before {@code META}, outside {@link #collectionSortKeyRange()}, so it never shows in a read.
     */
    public static PrimaryKey idempotencyKey(WorkspaceId workspaceId, String sha256Hex) {
        if (sha256Hex == null || !sha256Hex.matches("^[0-9a-f]{64}$")) {
            throw new IllegalArgumentException("idempotency key must be a lower-case SHA-256 hex digest");
        }
        return new PrimaryKey(workspacePartition(workspaceId), IDEMPOTENCY_PREFIX + sha256Hex);
    }

    /**
     * The sort keys of a workspace's readable collection, {@code META} then every {@code PROJ#...}: the
     * range for a {@code BETWEEN} key condition that leaves bookkeeping items (idempotency records) out.
     */
    public static SortKeyRange collectionSortKeyRange() {
        return new SortKeyRange(META, AFTER_LAST_PROJECT);
    }

    /**
     * The index partition of the projects with one status, in one index shard: {@code STATUS#ACTIVE#03}. The
     * status is an upper-case word (the codec knows no model types).
     */
    public static String statusIndexPartition(String status, int shard) {
        if (status == null || !status.matches("^[A-Z]{1,32}$")) {
            throw new IllegalArgumentException("a status is an upper-case word");
        }
        return STATUS_PREFIX + status + SEPARATOR + twoDigits(shard);
    }

    /** The partition of the hot-tenant report, {@code REPORT#hot-tenants}: written by the stats job only. */
    public static String hotTenantReportPartition() {
        return HOT_TENANT_REPORT;
    }

    /**
     * The report entry of one hot partition, {@code REPORT#hot-tenants / WS#acme#03}: its sort key is the partition
     * it reports on (a workspace's, or one shard's), so the report lists in workspace order, shards together.
     */
    public static PrimaryKey hotTenantReportKey(String partition) {
        decodePartition(partition);
        return new PrimaryKey(HOT_TENANT_REPORT, partition);
    }

    /** The index partition of the workspace registry in one index shard: {@code WSREG#05}. */
    public static String registryIndexPartition(int shard) {
        return REGISTRY_PREFIX + twoDigits(shard);
    }

    /** A project's index sort key: its own sort key, whose ULID orders the listing by creation. */
    public static String projectIndexSortKey(ProjectId projectId) {
        return projectSortKey(projectId);
    }

    /** A workspace's registry sort key, {@code WS#acme}: the registry lists workspaces in id order. */
    public static String workspaceIndexSortKey(WorkspaceId workspaceId) {
        return workspacePartition(workspaceId);
    }

    /** Decodes a registry sort key {@code WS#acme} to its workspace. */
    public static WorkspaceId decodeWorkspaceIndexSortKey(String sort) {
        PartitionRef ref = decodePartition(sort);
        if (ref.sharded()) {
            throw new InvalidKeyException("not a registry sort key");
        }
        return ref.workspaceId();
    }

    /**
     * Decodes an index partition, {@code STATUS#ACTIVE#03} or {@code WSREG#05}, to the key it spreads
     * ({@code STATUS#ACTIVE}, {@code WSREG}) and its shard: how the console folds the index's shards together.
     */
    public static IndexPartitionRef decodeIndexPartition(String partition) {
        int separator = partition == null ? -1 : partition.lastIndexOf(SEPARATOR);
        if (separator < 0
                || !(partition.startsWith(STATUS_PREFIX) || partition.startsWith(REGISTRY_PREFIX))
                || !partition.substring(separator + 1).matches("^[0-9]{2}$")
                || partition.endsWith(SEPARATOR + "00")) {
            throw new InvalidKeyException("not an index partition");
        }
        return new IndexPartitionRef(
                partition.substring(0, separator), Integer.parseInt(partition.substring(separator + 1)));
    }

    /**
     * Every index partition of one key the index spreads, {@code STATUS#ACTIVE} or {@code WSREG}, over
     * {@code shards} shards: what a reader of the whole key queries.
     */
    public static java.util.List<String> indexKeyPartitions(String key, int shards) {
        java.util.List<String> out = new java.util.ArrayList<>();
        boolean registry = key != null && key.equals(REGISTRY_PREFIX.substring(0, REGISTRY_PREFIX.length() - 1));
        boolean status = key != null && key.startsWith(STATUS_PREFIX);
        if (!registry && !status) {
            throw new InvalidKeyException("not an index key");
        }
        for (int shard = 1; shard <= shards; shard++) {
            out.add(
                    registry
                            ? registryIndexPartition(shard)
                            : statusIndexPartition(key.substring(STATUS_PREFIX.length()), shard));
        }
        return out;
    }

    /**
     * The sort key a person's typed text seeks: a sort key as typed ({@code META}, {@code PROJ#01J...},
     * {@code IDEM#...}, a registry's {@code WS#acme}, or the start of one), or a project id or the start of one
     * (any case), as its project sort key. Empty for any other text (a name, say).
     */
    public static java.util.Optional<String> seekSortKey(String typed) {
        String text = typed == null ? "" : typed.trim();
        if (text.isEmpty() || text.length() > 100) {
            return java.util.Optional.empty();
        }
        for (String prefix : java.util.List.of(PROJECT_PREFIX, IDEMPOTENCY_PREFIX, WORKSPACE_PREFIX)) {
            if (text.startsWith(prefix)) {
                return java.util.Optional.of(text);
            }
        }
        if (META.startsWith(text)) {
            return java.util.Optional.of(text);
        }
        String id = text.toUpperCase(java.util.Locale.ROOT);
        return id.matches("^[0-9A-HJKMNP-TV-Z]{1,26}$")
                ? java.util.Optional.of(PROJECT_PREFIX + id)
                : java.util.Optional.empty();
    }

    /** A decoded index partition: the key it spreads, and its shard (1-based). */
    public record IndexPartitionRef(String key, int shard) {}

    private static String twoDigits(int shard) {
        if (shard < 1 || shard > MAX_SHARDS) {
            throw new IllegalArgumentException("shard must be 1.." + MAX_SHARDS);
        }
        return (shard < 10 ? "0" : "") + shard;
    }

    /** An inclusive sort key range. */
    public record SortKeyRange(String low, String high) {}

    /** Decodes {@code WS#acme} or {@code WS#acme#07}. */
    public static PartitionRef decodePartition(String partition) {
        if (partition == null || !partition.startsWith(WORKSPACE_PREFIX)) {
            throw new InvalidKeyException("not a workspace partition");
        }
        String rest = partition.substring(WORKSPACE_PREFIX.length());
        int separator = rest.indexOf(SEPARATOR);
        if (separator < 0) {
            return new PartitionRef(parseWorkspace(rest), 0);
        }
        String shard = rest.substring(separator + 1);
        if (shard.length() != 2
                || !Character.isDigit(shard.charAt(0))
                || !Character.isDigit(shard.charAt(1))
                || shard.equals("00")) {
            throw new InvalidKeyException("bad shard suffix");
        }
        return new PartitionRef(parseWorkspace(rest.substring(0, separator)), Integer.parseInt(shard));
    }

    /** Decodes {@code META} or {@code PROJ#<ulid>}. */
    public static SortKey decodeSortKey(String sort) {
        if (META.equals(sort)) {
            return new SortKey.WorkspaceMeta();
        }
        if (sort != null && sort.startsWith(PROJECT_PREFIX)) {
            try {
                return new SortKey.ProjectEntry(ProjectId.of(sort.substring(PROJECT_PREFIX.length())));
            } catch (InvalidIdException e) {
                throw new InvalidKeyException("bad project sort key");
            }
        }
        throw new InvalidKeyException("unknown sort key");
    }

    /** The request digest of an idempotency record's sort key {@code IDEM#<sha-256 hex>}; empty for any other. */
    public static java.util.Optional<String> decodeIdempotencySortKey(String sort) {
        if (sort != null
                && sort.startsWith(IDEMPOTENCY_PREFIX)
                && sort.substring(IDEMPOTENCY_PREFIX.length()).matches("^[0-9a-f]{64}$")) {
            return java.util.Optional.of(sort.substring(IDEMPOTENCY_PREFIX.length()));
        }
        return java.util.Optional.empty();
    }

    /** Decodes {@code PROJ#<ulid>} to its project; any other sort key is an {@link InvalidKeyException}. */
    public static ProjectId decodeProjectSortKey(String sort) {
        return decodeSortKey(sort).project().orElseThrow(() -> new InvalidKeyException("not a project sort key"));
    }

    private static WorkspaceId parseWorkspace(String slug) {
        try {
            return WorkspaceId.of(slug);
        } catch (InvalidIdException e) {
            throw new InvalidKeyException("bad workspace partition");
        }
    }

    /** A decoded partition key: the workspace, and its shard (0 for the unsharded partition). */
    public record PartitionRef(WorkspaceId workspaceId, int shard) {
        public boolean sharded() {
            return shard > 0;
        }
    }

    /** A stored or client-supplied key that is not in this codec's format. */
    public static final class InvalidKeyException extends IllegalArgumentException {
        public InvalidKeyException(String message) {
            super(message);
        }
    }
}
