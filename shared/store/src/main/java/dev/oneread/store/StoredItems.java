package dev.oneread.store;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.SortKey;
import dev.oneread.keys.Ulid;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectQuota;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspaceStats;
import dev.oneread.operations.GetHotTenantReportOperation;
import dev.oneread.operations.IndexEntries;
import dev.oneread.operations.RunJobOperation;
import dev.oneread.store.calls.InvocationDeadline;
import dev.oneread.store.exceptions.UndecodableItemException;
import dev.oneread.store.idempotency.IdempotencyRecord;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Whether an item is one this API could have written: decoded by the key codec and the store's own item mapping
 * (the reads' decoding, {@link Items}), then encoded back by that same mapping, which must give the item itself.
 * Besides what the mapping writes, an item may carry only what the API's other writers add, each checked by its
 * type: the creation token, the index keys the codec computes (or none, as before the index; BackfillIndex adds
 * them), and on a workspace the jobs' bookkeeping (counts, runs, a purge, a migration lease). What the console's
 * fixture import admits, so that an import cannot plant what the API refuses.
 *
 * <pre>{@code StoredItems.Decoded decoded = new StoredItems("oneread", plan).decode(item);}</pre>
 */
public final class StoredItems {
    private final ShardPlan plan;

    /** @param plan where the deployment puts each project (its hot tenants' shards) and its index entries */
    public StoredItems(String tableName, ShardPlan plan) {
        this.plan = plan;
    }

    /** What an item is, once decoded. */
    public sealed interface Decoded {}

    /** A workspace item, live or being purged. */
    public record OfWorkspace(Workspace workspace) implements Decoded {}

    /** A project item, at one of the keys its location allows. */
    public record OfProject(Project project) implements Decoded {}

    /** A tombstone a DELETE left at a project's shard key during a move. */
    public record Tombstone(PrimaryKey key) implements Decoded {}

    /** An item of the API's own bookkeeping: an idempotency record, or an entry of the hot-tenant report. */
    public record Bookkeeping(String kind) implements Decoded {}

    /**
     * The kind of bookkeeping item a key names ({@code IDEM#...}, {@code REPORT#...}), from its shape alone; empty
     * for any other key. An import asks before decoding: such items go in only when asked for.
     */
    public static Optional<String> bookkeepingKind(PrimaryKey key) {
        if (KeyCodec.hotTenantReportPartition().equals(key.partition())) {
            return Optional.of("hot-tenant report entry");
        }
        return KeyCodec.decodeIdempotencySortKey(key.sort()).map(digest -> "idempotency record");
    }

    /**
     * Decodes an item whose two key attributes are strings.
     *
     * @throws UndecodableItemException naming the attribute, for an item this API could not have written
     */
    public Decoded decode(Map<String, AttributeValue> item) {
        PrimaryKey key = Items.keyOf(item);
        if (KeyCodec.hotTenantReportPartition().equals(key.partition())) {
            GetHotTenantReportOperation.transformEntry(item);
            Items.attributeOutside(item, GetHotTenantReportOperation.ENTRY_ATTRIBUTES)
                    .ifPresent(attribute -> {
                        throw new UndecodableItemException(
                                key, "a hot-tenant report entry has no attribute " + attribute);
                    });
            return new Bookkeeping("hot-tenant report entry");
        }
        KeyCodec.PartitionRef partition = Items.decodedKey(key, () -> KeyCodec.decodePartition(key.partition()));
        if (KeyCodec.decodeIdempotencySortKey(key.sort()).isPresent()) {
            if (partition.sharded()) {
                throw new UndecodableItemException(key, "an idempotency record lives in its workspace's own partition");
            }
            IdempotencyRecord record = IdempotencyRecord.of(item);
            record.notAsWritten(item)
                    .or(() -> record.answersAnotherThan(partition.workspaceId()))
                    .ifPresent(reason -> {
                        throw new UndecodableItemException(key, reason);
                    });
            return new Bookkeeping("idempotency record");
        }
        SortKey sort = Items.decodedKey(key, () -> KeyCodec.decodeSortKey(key.sort()));
        Optional<ProjectId> project = sort.project();
        if (project.isEmpty()) {
            return new OfWorkspace(workspace(item, key));
        }
        if (Items.isTombstone(item)) {
            if (!item.equals(Items.tombstone(key)) || !located(partition, project.get(), key)) {
                throw new UndecodableItemException(
                        key, "a tombstone is its key and its mark, at a project's shard key");
            }
            return new Tombstone(key);
        }
        return new OfProject(project(item, key));
    }

    /**
     * The workspace, with its bookkeeping each as its writer writes it: a purge's mark not in the future (the
     * DELETE's time), counts as the stats job writes them, a lease no longer than a run can hold one (a later end
     * would hold off the workspace's purge, and keep its id taken, for as long), and a quota by the API's own rule.
     */
    private Workspace workspace(Map<String, AttributeValue> item, PrimaryKey key) {
        Workspace workspace = Items.workspace(item);
        if (workspace.projectQuota() != null && !ProjectQuota.isLimit(workspace.projectQuota())) {
            throw new UndecodableItemException(key, Items.PROJECT_QUOTA + " is not " + ProjectQuota.RULE);
        }
        Instant now = Instant.now();
        Map<String, AttributeValue> expected = Items.workspaceItem(workspace);
        copyIfValid(item, expected, Items.CREATION_TOKEN, StoredItems::isCreationToken, "a creation token");
        if (Items.isPurging(item)) {
            copyIfValid(item, expected, Items.PURGE_RUN, StoredItems::isUlid, "a run id (a ULID)");
            copyIfValid(
                    item,
                    expected,
                    Items.DELETED_AT,
                    value -> isInstant(value) && !Instant.parse(value.s()).isAfter(now),
                    "an ISO-8601 instant, not in the future (when the DELETE marked the workspace)");
            if (!item.containsKey(Items.DELETED_AT)) {
                throw new UndecodableItemException(key, Items.PURGE_RUN + " without " + Items.DELETED_AT);
            }
        } else if (hasIndexKeys(item)) {
            expected.putAll(IndexEntries.registryEntry(plan, workspace.id()));
        }
        copyIfValid(
                item,
                expected,
                Items.STATS,
                value -> isCounted(Items.stats(value), now),
                "counts as the stats job writes them (whole numbers from 0, a total that is their sum, as of a time"
                        + " not in the future)");
        copyIfValid(item, expected, RunJobOperation.STATS_RUN, StoredItems::isUlid, "a run id (a ULID)");
        copyIfValid(item, expected, Items.MIGRATION_RUN, StoredItems::isUlid, "a run id (a ULID)");
        copyIfValid(
                item,
                expected,
                Items.MIGRATION_UNTIL,
                value -> isWholeNumber(value)
                        && Long.parseLong(value.n())
                                <= now.plus(InvocationDeadline.LONGEST_CLAIM).toEpochMilli(),
                "epoch milliseconds at most " + InvocationDeadline.LONGEST_CLAIM.toMinutes()
                        + " minutes from now (the longest invocation, and the time its writes take to land: the"
                        + " furthest a run's lease reaches)");
        if (item.containsKey(Items.MIGRATION_RUN) && !item.containsKey(Items.MIGRATION_UNTIL)) {
            throw new UndecodableItemException(key, Items.MIGRATION_RUN + " without " + Items.MIGRATION_UNTIL);
        }
        same(item, expected, key, "workspace");
        return workspace;
    }

    private static boolean isCounted(WorkspaceStats stats, Instant now) {
        return stats != null
                && stats.active() >= 0
                && stats.paused() >= 0
                && stats.archived() >= 0
                && (long) stats.active() + stats.paused() + stats.archived() == stats.total()
                && !stats.asOf().isAfter(now);
    }

    private Project project(Map<String, AttributeValue> item, PrimaryKey key) {
        Project project = Items.project(item);
        if (!located(KeyCodec.decodePartition(key.partition()), project.id(), key)) {
            throw new UndecodableItemException(
                    key,
                    "the shard plan puts this project in "
                            + plan.locate(project.workspaceId(), project.id())
                                    .home()
                                    .partition());
        }
        Map<String, AttributeValue> expected = Items.projectItem(project, key);
        copyIfValid(item, expected, Items.CREATION_TOKEN, StoredItems::isCreationToken, "a creation token");
        if (hasIndexKeys(item)) {
            expected.putAll(IndexEntries.statusEntry(plan, project.status().name(), project.id()));
        }
        same(item, expected, key, "project");
        return project;
    }

    /** True where the plan may hold this project at this key: its home, or during a move its unsharded copy. */
    private boolean located(KeyCodec.PartitionRef partition, ProjectId id, PrimaryKey key) {
        return plan.locate(partition.workspaceId(), id).keys().contains(key);
    }

    private static boolean hasIndexKeys(Map<String, AttributeValue> item) {
        return item.containsKey(KeyCodec.INDEX_PARTITION_KEY) || item.containsKey(KeyCodec.INDEX_SORT_KEY);
    }

    /** Copies an optional attribute into what the item should be, if its value is what its writer writes. */
    private static void copyIfValid(
            Map<String, AttributeValue> item,
            Map<String, AttributeValue> expected,
            String attribute,
            Predicate<AttributeValue> valid,
            String what) {
        AttributeValue value = item.get(attribute);
        if (value == null) {
            return;
        }
        if (!valid.test(value)) {
            throw new UndecodableItemException(Items.keyOf(item), attribute + " is not " + what);
        }
        expected.put(attribute, value);
    }

    /** The item must be what the mapping gives back: no attribute more, none missing, none changed. */
    private static void same(
            Map<String, AttributeValue> item, Map<String, AttributeValue> expected, PrimaryKey key, String kind) {
        for (String attribute : item.keySet()) {
            if (!expected.containsKey(attribute)) {
                throw new UndecodableItemException(key, "no " + kind + " item has an attribute " + attribute);
            }
        }
        Map<String, AttributeValue> differing = new LinkedHashMap<>(expected);
        differing.entrySet().removeIf(e -> e.getValue().equals(item.get(e.getKey())));
        for (String attribute : differing.keySet()) {
            if (!item.containsKey(attribute)) {
                throw new UndecodableItemException(key, attribute + " is missing");
            }
            if (attribute.equals(KeyCodec.INDEX_PARTITION_KEY) || attribute.equals(KeyCodec.INDEX_SORT_KEY)) {
                throw new UndecodableItemException(key, attribute + " is not the index key the codec gives this item");
            }
            throw new UndecodableItemException(key, attribute + " is not in the form the API writes it");
        }
    }

    private static boolean isUlid(AttributeValue value) {
        return value.s() != null && Ulid.isCanonical(value.s());
    }

    private static boolean isInstant(AttributeValue value) {
        try {
            return value.s() != null
                    && java.time.Instant.parse(value.s()).toString().equals(value.s());
        } catch (java.time.format.DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isWholeNumber(AttributeValue value) {
        return value.n() != null && value.n().matches("^[0-9]{1,18}$");
    }

    private static boolean isCreationToken(AttributeValue value) {
        if (value.s() == null || !value.s().matches("^[A-Za-z0-9_-]+$")) {
            return false;
        }
        try {
            new CreationToken(value.s());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
