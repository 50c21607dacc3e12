package dev.oneread.store.items;

import dev.oneread.keys.IndexPlan;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The index keys an item carries: a workspace's registry entry and a project's status entry. The routes' writes and
 * the index backfill both write them, so they are built here, once.
 *
 * <pre>{@code Map<String, AttributeValue> keys = new IndexEntries(plan.index()).registryEntry(WorkspaceId.of("acme"));}</pre>
 */
public final class IndexEntries {
    private final IndexPlan index;

    public IndexEntries(IndexPlan index) {
        this.index = index;
    }

    /** The index keys of a workspace's registry entry: {@code WSREG#nn} / {@code WS#id}. */
    public Map<String, AttributeValue> registryEntry(WorkspaceId workspaceId) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>();
        keys.put(KeyCodec.INDEX_PARTITION_KEY, AttributeValue.fromS(index.workspacePartition(workspaceId)));
        keys.put(KeyCodec.INDEX_SORT_KEY, AttributeValue.fromS(KeyCodec.workspaceIndexSortKey(workspaceId)));
        return keys;
    }

    /** The index keys of a project with {@code status}: {@code STATUS#<status>#nn} / {@code PROJ#<ulid>}. */
    public Map<String, AttributeValue> statusEntry(String status, ProjectId projectId) {
        Map<String, AttributeValue> keys = new LinkedHashMap<>();
        keys.put(KeyCodec.INDEX_PARTITION_KEY, AttributeValue.fromS(index.projectPartition(status, projectId)));
        keys.put(KeyCodec.INDEX_SORT_KEY, AttributeValue.fromS(KeyCodec.projectIndexSortKey(projectId)));
        return keys;
    }
}
