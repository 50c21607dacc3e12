package dev.oneread.store.purge;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.store.items.Items;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A workspace's purge, as its DELETE started it: the run id its task carries (a ULID), and when the workspace was
 * deleted, from which the purge waits out its fence.
 *
 * <pre>{@code Purge purge = store.deleteWorkspace(acme, ExpectedVersion.any(), runId, now, tally);}</pre>
 */
public record Purge(WorkspaceId workspaceId, String runId, Instant deletedAt) {
    public static Purge of(WorkspaceId workspaceId, Map<String, AttributeValue> item) {
        return new Purge(
                workspaceId,
                item.get(Items.PURGE_RUN).s(),
                Instant.parse(item.get(Items.DELETED_AT).s()));
    }
}
