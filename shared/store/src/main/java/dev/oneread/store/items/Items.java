package dev.oneread.store.items;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceStats;
import dev.oneread.store.exceptions.UndecodableItemException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Maps model records to DynamoDB items and back. Ids are not stored twice: they are decoded from the keys,
 * so an item's identity can never disagree with its key.
 */
public final class Items {
    public static final String NAME = "name";
    public static final String SETTINGS = "settings";
    public static final String DESCRIPTION = "description";
    public static final String STATUS = "status";
    public static final String CREATED_AT = "createdAt";
    public static final String UPDATED_AT = "updatedAt";
    public static final String VERSION = "version";
    /**
     * A workspace's own project quota: set only by operators, and kept out of {@link #SETTINGS}, which its tenant
     * writes. A {@code settings.projectQuota} that older items carry is a setting like any other, not a quota.
     */
    public static final String PROJECT_QUOTA = "projectQuota";
    /** The workspace item's attribute the stats rollup writes its counts to, and the run that wrote them. */
    public static final String STATS = "stats";
    /**
     * Marks a tombstone: what a DELETE leaves at a project's shard key while its workspace is being moved into
     * shards, so that the move cannot copy the deleted project back. It has no version, so every versioned write
     * and the move's copy refuse it, and every read treats it as no item.
     */
    public static final String DELETED_DURING_MOVE = "deletedDuringMove";
    /**
     * Marks a workspace being purged (DELETE /workspaces/{id}): the purge's run id. From the write that sets it,
     * every read treats the workspace as gone, and nothing can create in it; the purge task deletes the item last.
     */
    public static final String PURGE_RUN = "purgeRun";
    /** When the workspace was deleted: the purge sweeps once every create that could have read it live has ended. */
    public static final String DELETED_AT = "deletedAt";
    /**
     * The migration lease on a workspace item (see {@link dev.oneread.store.migration.ShardMigration}): the run
     * that holds it (a ULID), and until when (epoch milliseconds), the moment after which no write that run sent
     * can still land. One run at a time moves a workspace's projects, and a purge sweeps only once the lease is over.
     */
    public static final String MIGRATION_RUN = "migrationRun";

    public static final String MIGRATION_UNTIL = "migrationUntil";
    /** The {@link CreationToken} of the request that created the item. */
    public static final String CREATION_TOKEN = "creationToken";
    // Idempotency records
    public static final String PAYLOAD_HASH = "payloadHash";
    public static final String IN_PROGRESS_UNTIL = "inProgressUntil";
    public static final String EXPIRES_AT = "expiresAt";
    public static final String RESPONSE_STATUS = "responseStatus";
    public static final String RESPONSE_HEADERS = "responseHeaders";
    public static final String RESPONSE_BODY = "responseBody";
    /** Who took the claim: a claim whose answer was lost, retried by the SDK, knows its own record by it. */
    public static final String HOLDER = "holder";
    /** The id a claimed create will give what it creates: every retry of the request reuses it. */
    public static final String RESERVED_ID = "reservedId";

    public static final String IN_PROGRESS = "INPROGRESS";
    public static final String COMPLETED = "COMPLETED";

    private Items() {}

    public static Map<String, AttributeValue> key(PrimaryKey key) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(KeyCodec.PARTITION_KEY, AttributeValue.fromS(key.partition()));
        item.put(KeyCodec.SORT_KEY, AttributeValue.fromS(key.sort()));
        return item;
    }

    public static Map<String, AttributeValue> workspaceItem(Workspace workspace) {
        Map<String, AttributeValue> item = key(KeyCodec.workspaceKey(workspace.id()));
        item.put(NAME, AttributeValue.fromS(workspace.name()));
        item.put(SETTINGS, AttributeValues.fromJson(workspace.settings()));
        item.put(CREATED_AT, AttributeValue.fromS(workspace.createdAt().toString()));
        item.put(UPDATED_AT, AttributeValue.fromS(workspace.updatedAt().toString()));
        item.put(VERSION, AttributeValue.fromN(Long.toString(workspace.version())));
        if (workspace.projectQuota() != null) {
            item.put(
                    PROJECT_QUOTA, AttributeValue.fromN(workspace.projectQuota().toString()));
        }
        return item;
    }

    /** @param key where the project lives: its workspace's partition, or its shard */
    public static Map<String, AttributeValue> projectItem(Project project, PrimaryKey key) {
        Map<String, AttributeValue> item = key(key);
        item.put(NAME, AttributeValue.fromS(project.name()));
        if (project.description() != null) {
            item.put(DESCRIPTION, AttributeValue.fromS(project.description()));
        }
        item.put(STATUS, AttributeValue.fromS(project.status().name()));
        item.put(CREATED_AT, AttributeValue.fromS(project.createdAt().toString()));
        item.put(UPDATED_AT, AttributeValue.fromS(project.updatedAt().toString()));
        item.put(VERSION, AttributeValue.fromN(Long.toString(project.version())));
        return item;
    }

    /** A string attribute's value, or null where the item has none. */
    static String text(Map<String, AttributeValue> item, String attribute) {
        AttributeValue value = item.get(attribute);
        return value == null ? null : value.s();
    }

    /** True when {@code item} was created by the request that holds {@code token}. */
    public static boolean createdBy(Map<String, AttributeValue> item, CreationToken token) {
        return token.value().equals(text(item, CREATION_TOKEN));
    }

    /** True for a tombstone (see {@link #DELETED_DURING_MOVE}): no project, whatever its key says. */
    public static boolean isTombstone(Map<String, AttributeValue> item) {
        return item.containsKey(DELETED_DURING_MOVE);
    }

    /** A workspace item whose workspace was deleted and is being purged: to every reader, no item. */
    public static boolean isPurging(Map<String, AttributeValue> item) {
        return item.containsKey(PURGE_RUN);
    }

    /** Until when a migration run holds the workspace item's lease; empty when no run holds it. */
    public static Optional<Instant> migrationLeaseUntil(Map<String, AttributeValue> workspace) {
        AttributeValue until = workspace.get(MIGRATION_UNTIL);
        return workspace.containsKey(MIGRATION_RUN) && until != null && until.n() != null
                ? Optional.of(Instant.ofEpochMilli(Long.parseLong(until.n())))
                : Optional.empty();
    }

    /** Neither a tombstone nor a workspace being purged: an item a reader sees. */
    public static boolean isLive(Map<String, AttributeValue> item) {
        return !isTombstone(item) && !isPurging(item);
    }

    /** True for the table's two key attributes, which every item has. */
    static boolean isKeyAttribute(String attribute) {
        return KeyCodec.PARTITION_KEY.equals(attribute) || KeyCodec.SORT_KEY.equals(attribute);
    }

    /** The first attribute of {@code item}, its key aside, that is not in {@code allowed}; empty when none. */
    public static Optional<String> attributeOutside(Map<String, AttributeValue> item, java.util.Set<String> allowed) {
        return item.keySet().stream()
                .filter(attribute -> !isKeyAttribute(attribute) && !allowed.contains(attribute))
                .findFirst();
    }

    /** The key an item is stored under, read back from it. */
    public static PrimaryKey keyOf(Map<String, AttributeValue> item) {
        return new PrimaryKey(
                item.get(KeyCodec.PARTITION_KEY).s(),
                item.get(KeyCodec.SORT_KEY).s());
    }

    /** A tombstone at {@code key}: the key and the mark, nothing else. */
    public static Map<String, AttributeValue> tombstone(PrimaryKey key) {
        Map<String, AttributeValue> item = key(key);
        item.put(DELETED_DURING_MOVE, AttributeValue.fromBool(true));
        return item;
    }

    /** True for the workspace item of a collection ({@code META}), false for a project. */
    public static boolean isWorkspace(Map<String, AttributeValue> item) {
        return KeyCodec.workspaceSortKey().equals(item.get(KeyCodec.SORT_KEY).s());
    }

    public static ProjectId projectId(Map<String, AttributeValue> item) {
        return KeyCodec.decodeProjectSortKey(item.get(KeyCodec.SORT_KEY).s());
    }

    /**
     * The workspace an item holds, decoded strictly: an item this API could not have written (by hand, by another
     * version) is an {@link UndecodableItemException} naming its key and the attribute, never a half-read record.
     */
    public static Workspace workspace(Map<String, AttributeValue> item) {
        PrimaryKey key = keyOf(item);
        KeyCodec.PartitionRef partition = decodedKey(key, () -> KeyCodec.decodePartition(key.partition()));
        if (partition.sharded() || !KeyCodec.workspaceSortKey().equals(key.sort())) {
            throw new UndecodableItemException(key, "a workspace item is META in its workspace's own partition");
        }
        AttributeValue settings = item.get(SETTINGS);
        Map<String, Object> json = Map.of();
        if (settings != null) {
            if (!settings.hasM()) {
                throw new UndecodableItemException(key, SETTINGS + " is not a map");
            }
            try {
                json = AttributeValues.toJsonMap(settings.m());
            } catch (IllegalArgumentException e) {
                throw new UndecodableItemException(key, SETTINGS + " holds a value JSON has no form for");
            }
        }
        AttributeValue quota = item.get(PROJECT_QUOTA);
        Integer projectQuota;
        try {
            projectQuota = quota == null ? null : Integer.valueOf(quota.n());
        } catch (NumberFormatException e) {
            throw new UndecodableItemException(key, PROJECT_QUOTA + " is not a whole number");
        }
        return new Workspace(
                partition.workspaceId(),
                string(item, NAME),
                json,
                instant(item, CREATED_AT),
                instant(item, UPDATED_AT),
                version(item),
                stats(item.get(STATS)),
                projectQuota);
    }

    /**
     * The counts the stats job wrote, or null before its first run (or where they do not parse). A sharded
     * tenant's map holds one part per shard ({@code s01}, ...), each written by its own task: they are summed, and
     * the oldest part's time is the whole's.
     */
    public static WorkspaceStats stats(AttributeValue stats) {
        if (stats == null || !stats.hasM()) {
            return null;
        }
        WorkspaceStats sum = null;
        for (Map.Entry<String, AttributeValue> entry : stats.m().entrySet()) {
            if (entry.getKey().matches("s[0-9]{2}") && entry.getValue().hasM()) {
                WorkspaceStats part = counts(entry.getValue().m());
                if (part == null) {
                    return null;
                }
                sum = sum == null ? part : sum.plus(part);
            }
        }
        return sum != null ? sum : counts(stats.m());
    }

    private static WorkspaceStats counts(Map<String, AttributeValue> m) {
        try {
            return new WorkspaceStats(
                    Integer.parseInt(m.get("ACTIVE").n()),
                    Integer.parseInt(m.get("PAUSED").n()),
                    Integer.parseInt(m.get("ARCHIVED").n()),
                    Integer.parseInt(m.get("total").n()),
                    Instant.parse(m.get("asOf").s()));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The project an item holds, decoded strictly, as {@link #workspace} is. */
    public static Project project(Map<String, AttributeValue> item) {
        PrimaryKey key = keyOf(item);
        KeyCodec.PartitionRef partition = decodedKey(key, () -> KeyCodec.decodePartition(key.partition()));
        ProjectId id = decodedKey(key, () -> KeyCodec.decodeProjectSortKey(key.sort()));
        AttributeValue description = item.get(DESCRIPTION);
        if (description != null && description.s() == null) {
            throw new UndecodableItemException(key, DESCRIPTION + " is not a string");
        }
        return new Project(
                id,
                partition.workspaceId(),
                string(item, NAME),
                description == null ? null : description.s(),
                status(item),
                instant(item, CREATED_AT),
                instant(item, UPDATED_AT),
                version(item));
    }

    public static <T> T decodedKey(PrimaryKey key, java.util.function.Supplier<T> decode) {
        try {
            return decode.get();
        } catch (KeyCodec.InvalidKeyException e) {
            throw new UndecodableItemException(key, "the key is not in the codec's format: " + e.getMessage());
        }
    }

    /** A string attribute that must be there, non-empty. */
    public static String string(Map<String, AttributeValue> item, String attribute) {
        AttributeValue value = item.get(attribute);
        if (value == null || value.s() == null || value.s().isEmpty()) {
            throw new UndecodableItemException(keyOf(item), attribute + " is missing or not a non-empty string");
        }
        return value.s();
    }

    /** A whole number attribute that must be there. */
    public static long number(Map<String, AttributeValue> item, String attribute) {
        AttributeValue value = item.get(attribute);
        if (value != null && value.n() != null) {
            try {
                return Long.parseLong(value.n());
            } catch (NumberFormatException e) {
                // said below
            }
        }
        throw new UndecodableItemException(keyOf(item), attribute + " is missing or not a whole number");
    }

    /** A time attribute, as the store writes it ({@link Instant#toString()}). */
    public static Instant instant(Map<String, AttributeValue> item, String attribute) {
        String text = string(item, attribute);
        try {
            return Instant.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new UndecodableItemException(keyOf(item), attribute + " is not an ISO-8601 instant");
        }
    }

    private static long version(Map<String, AttributeValue> item) {
        long version = number(item, VERSION);
        if (version < 1) {
            throw new UndecodableItemException(keyOf(item), VERSION + " is below 1");
        }
        return version;
    }

    private static ProjectStatus status(Map<String, AttributeValue> item) {
        String status = string(item, STATUS);
        for (ProjectStatus known : ProjectStatus.values()) {
            if (known.name().equals(status)) {
                return known;
            }
        }
        throw new UndecodableItemException(keyOf(item), STATUS + " is not one of ACTIVE, PAUSED, ARCHIVED");
    }
}
