package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceStats;
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
    static final String NAME = "name";
    static final String SETTINGS = "settings";
    static final String DESCRIPTION = "description";
    static final String STATUS = "status";
    static final String CREATED_AT = "createdAt";
    static final String UPDATED_AT = "updatedAt";
    static final String VERSION = "version";
    /**
     * A workspace's own project quota: set only by operators, and kept out of {@link #SETTINGS}, which its tenant
     * writes. A {@code settings.projectQuota} that older items carry is a setting like any other, not a quota.
     */
    static final String PROJECT_QUOTA = "projectQuota";
    /**
     * Marks a tombstone: what a DELETE leaves at a project's shard key while its workspace is being moved into
     * shards, so that the move cannot copy the deleted project back. It has no version, so every versioned write
     * and the move's copy refuse it, and every read treats it as no item.
     */
    static final String DELETED_DURING_MOVE = "deletedDuringMove";
    /**
     * Marks a workspace being purged (DELETE /workspaces/{id}): the purge's run id. From the write that sets it,
     * every read treats the workspace as gone, and nothing can create in it; the purge task deletes the item last.
     */
    static final String PURGE_RUN = "purgeRun";
    /** When the workspace was deleted: the purge sweeps once every create that could have read it live has ended. */
    static final String DELETED_AT = "deletedAt";
    /**
     * The migration lease on a workspace item (see {@link ShardMigration}): the run that holds it (a ULID), and until
     * when (epoch milliseconds), the moment after which no write that run sent can still land. One run at a time
     * moves a workspace's projects, and a purge sweeps only once the lease is over.
     */
    static final String MIGRATION_RUN = "migrationRun";

    static final String MIGRATION_UNTIL = "migrationUntil";
    /** The {@link CreationToken} of the request that created the item. */
    static final String CREATION_TOKEN = "creationToken";
    // Idempotency records
    static final String PAYLOAD_HASH = "payloadHash";
    static final String IN_PROGRESS_UNTIL = "inProgressUntil";
    static final String EXPIRES_AT = "expiresAt";
    static final String RESPONSE_STATUS = "responseStatus";
    static final String RESPONSE_HEADERS = "responseHeaders";
    static final String RESPONSE_BODY = "responseBody";
    /** Who took the claim: a claim whose answer was lost, retried by the SDK, knows its own record by it. */
    static final String HOLDER = "holder";
    /** The id a claimed create will give what it creates: every retry of the request reuses it. */
    static final String RESERVED_ID = "reservedId";

    static final String IN_PROGRESS = "INPROGRESS";
    static final String COMPLETED = "COMPLETED";

    private Items() {}

    static Map<String, AttributeValue> key(PrimaryKey key) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(KeyCodec.PARTITION_KEY, AttributeValue.fromS(key.partition()));
        item.put(KeyCodec.SORT_KEY, AttributeValue.fromS(key.sort()));
        return item;
    }

    static Map<String, AttributeValue> workspaceItem(Workspace workspace) {
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
    static Map<String, AttributeValue> projectItem(Project project, PrimaryKey key) {
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
    static boolean createdBy(Map<String, AttributeValue> item, CreationToken token) {
        return token.value().equals(text(item, CREATION_TOKEN));
    }

    /** True for a tombstone (see {@link #DELETED_DURING_MOVE}): no project, whatever its key says. */
    public static boolean isTombstone(Map<String, AttributeValue> item) {
        return item.containsKey(DELETED_DURING_MOVE);
    }

    /** A workspace item whose workspace was deleted and is being purged: to every reader, no item. */
    static boolean isPurging(Map<String, AttributeValue> item) {
        return item.containsKey(PURGE_RUN);
    }

    /** Until when a migration run holds the workspace item's lease; empty when no run holds it. */
    static Optional<Instant> migrationLeaseUntil(Map<String, AttributeValue> workspace) {
        AttributeValue until = workspace.get(MIGRATION_UNTIL);
        return workspace.containsKey(MIGRATION_RUN) && until != null && until.n() != null
                ? Optional.of(Instant.ofEpochMilli(Long.parseLong(until.n())))
                : Optional.empty();
    }

    /** Neither a tombstone nor a workspace being purged: an item a reader sees. */
    static boolean isLive(Map<String, AttributeValue> item) {
        return !isTombstone(item) && !isPurging(item);
    }

    /** The key an item is stored under, read back from it. */
    static PrimaryKey keyOf(Map<String, AttributeValue> item) {
        return new PrimaryKey(
                item.get(KeyCodec.PARTITION_KEY).s(),
                item.get(KeyCodec.SORT_KEY).s());
    }

    /** A tombstone at {@code key}: the key and the mark, nothing else. */
    static Map<String, AttributeValue> tombstone(PrimaryKey key) {
        Map<String, AttributeValue> item = key(key);
        item.put(DELETED_DURING_MOVE, AttributeValue.fromBool(true));
        return item;
    }

    /** True for the workspace item of a collection ({@code META}), false for a project. */
    static boolean isWorkspace(Map<String, AttributeValue> item) {
        return KeyCodec.workspaceSortKey().equals(item.get(KeyCodec.SORT_KEY).s());
    }

    static ProjectId projectId(Map<String, AttributeValue> item) {
        return KeyCodec.decodeProjectSortKey(item.get(KeyCodec.SORT_KEY).s());
    }

    static Workspace workspace(Map<String, AttributeValue> item) {
        WorkspaceId id =
                KeyCodec.decodePartition(item.get(KeyCodec.PARTITION_KEY).s()).workspaceId();
        AttributeValue settings = item.get(SETTINGS);
        AttributeValue quota = item.get(PROJECT_QUOTA);
        return new Workspace(
                id,
                item.get(NAME).s(),
                settings == null ? Map.of() : AttributeValues.toJsonMap(settings.m()),
                Instant.parse(item.get(CREATED_AT).s()),
                Instant.parse(item.get(UPDATED_AT).s()),
                Long.parseLong(item.get(VERSION).n()),
                stats(item.get(StatsRequests.STATS)),
                quota == null ? null : Integer.valueOf(quota.n()));
    }

    /**
     * The counts the stats job wrote, or null before its first run (or where they do not parse). A sharded
     * tenant's map holds one part per shard ({@code s01}, ...), each written by its own task: they are summed, and
     * the oldest part's time is the whole's.
     */
    private static WorkspaceStats stats(AttributeValue stats) {
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

    static Project project(Map<String, AttributeValue> item) {
        WorkspaceId workspaceId =
                KeyCodec.decodePartition(item.get(KeyCodec.PARTITION_KEY).s()).workspaceId();
        ProjectId id = projectId(item);
        AttributeValue description = item.get(DESCRIPTION);
        return new Project(
                id,
                workspaceId,
                item.get(NAME).s(),
                description == null ? null : description.s(),
                ProjectStatus.valueOf(item.get(STATUS).s()),
                Instant.parse(item.get(CREATED_AT).s()),
                Instant.parse(item.get(UPDATED_AT).s()),
                Long.parseLong(item.get(VERSION).n()));
    }
}
