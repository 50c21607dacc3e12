package dev.oneread.operations;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The cross-workspace index keys an item carries (GSI1): a workspace's registry entry, a project's status entry.
 * The creates and updates write them, the backfill gives them to items written before the index.
 *
 * <pre>{@code Map<String, AttributeValue> keys = IndexEntries.registryEntry(ShardPlan.none(), WorkspaceId.of("acme"));}</pre>
 */
public final class IndexEntries {
    private IndexEntries() {}

    /** The index keys of a workspace's registry entry: {@code WSREG#nn} / {@code WS#id}. */
    public static Map<String, AttributeValue> registryEntry(ShardPlan plan, WorkspaceId workspaceId) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>();
        keys.put(KeyCodec.INDEX_PARTITION_KEY, AttributeValue.fromS(plan.index().workspacePartition(workspaceId)));
        keys.put(KeyCodec.INDEX_SORT_KEY, AttributeValue.fromS(KeyCodec.workspaceIndexSortKey(workspaceId)));
        return keys;
    }

    /** The index keys of a project with {@code status}: {@code STATUS#<status>#nn} / {@code PROJ#<ulid>}. */
    public static Map<String, AttributeValue> statusEntry(ShardPlan plan, String status, ProjectId projectId) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>();
        keys.put(KeyCodec.INDEX_PARTITION_KEY, AttributeValue.fromS(plan.index().projectPartition(status, projectId)));
        keys.put(KeyCodec.INDEX_SORT_KEY, AttributeValue.fromS(KeyCodec.projectIndexSortKey(projectId)));
        return keys;
    }
}
