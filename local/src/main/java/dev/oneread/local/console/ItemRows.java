package dev.oneread.local.console;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.SortKey;
import dev.oneread.store.items.DynamoJson;
import dev.oneread.store.items.ItemSize;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Items as the console shows them: each key decoded by the project's own codec (what kind of item, whose, which
 * shard, the creation time a project's ULID carries), then the other attributes in DynamoDB JSON.
 */
final class ItemRows {
    private ItemRows() {}

    /** Where a partition belongs: its tenant (the workspace id, or the raw key when the codec cannot read it). */
    record Place(String tenant, int shard, boolean decoded) {}

    static Place place(String partition) {
        try {
            KeyCodec.PartitionRef ref = KeyCodec.decodePartition(partition);
            return new Place(ref.workspaceId().value(), ref.shard(), true);
        } catch (IllegalArgumentException e) {
            return new Place(partition, 0, false);
        }
    }

    static Map<String, Object> row(Map<String, AttributeValue> item) {
        PrimaryKey key = TableMirror.keyOf(item);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("partition", key.partition());
        row.put("sort", key.sort());
        Place place = place(key.partition());
        row.put("tenant", place.tenant());
        row.put("shard", place.shard());
        describe(key.sort(), item).forEach(row::put);
        row.put("size", ItemSize.bytes(item));
        Map<String, AttributeValue> attributes = new LinkedHashMap<>(item);
        attributes.remove(KeyCodec.PARTITION_KEY);
        attributes.remove(KeyCodec.SORT_KEY);
        row.put("attributes", DynamoJson.item(new java.util.TreeMap<>(attributes)));
        return row;
    }

    /** {@code kind} (workspace, project, idempotency, tombstone, unknown), {@code id} and {@code createdAt}. */
    private static Map<String, Object> describe(String sort, Map<String, AttributeValue> item) {
        Map<String, Object> out = new LinkedHashMap<>();
        Optional<String> idempotency = KeyCodec.decodeIdempotencySortKey(sort);
        if (idempotency.isPresent()) {
            out.put("kind", "idempotency");
            out.put("id", idempotency.get().substring(0, 12) + "…");
            return out;
        }
        try {
            SortKey decoded = KeyCodec.decodeSortKey(sort);
            if (decoded instanceof SortKey.ProjectEntry project) {
                out.put("kind", Items.isTombstone(item) ? "tombstone" : "project");
                out.put("id", project.projectId().value());
                out.put(
                        "createdAt",
                        Instant.ofEpochMilli(project.projectId().timestampMillis())
                                .toString());
            } else {
                out.put("kind", "workspace");
            }
        } catch (IllegalArgumentException e) {
            out.put("kind", "unknown");
        }
        return out;
    }
}
