package dev.oneread.priming;

import dev.oneread.json.Json;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.model.Project;
import dev.oneread.model.Workspace;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.SampleHttpClient;
import dev.oneread.store.ControlPlaneStore;
import dev.oneread.store.items.DynamoJson;
import dev.oneread.store.items.Items;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A store whose client sends nothing and answers every call with a sample, as the store would read it had it been
 * stored, and that client, closed with it: for priming the success path, which the priming request (a workspace that
 * cannot exist) never reaches. The whole read path runs, the SDK's included, and reads nothing (see {@link
 * SampleHttpClient}). Priming uses it, then closes it, so that nothing of it stays in the snapshot but loaded and
 * compiled code.
 *
 * <pre>{@code try (SampleStore sample = SampleStore.of(store, PrimingSamples.WORKSPACE)) { sample.store(); }}</pre>
 */
public record SampleStore(ControlPlaneStore store, DynamoDbClient client) implements AutoCloseable {
    /** {@code store} on a client that answers with {@code sample} as {@link ControlPlaneStore#getWorkspace} reads it. */
    public static SampleStore of(ControlPlaneStore store, Workspace sample) {
        return answering(
                store,
                Map.of("Item", DynamoJson.item(Items.workspaceItem(sample)), "ConsumedCapacity", capacity(store)));
    }

    /**
     * As {@link #of(ControlPlaneStore, Workspace)}, for a project: {@link ControlPlaneStore#getProject} reads it, and
     * {@link ControlPlaneStore#listProjects} reads a page of it with more to come (the position after it, which the
     * HTTP layer seals into the next cursor).
     */
    public static SampleStore of(ControlPlaneStore store, Project sample) {
        PrimaryKey home = store.plan().locate(sample.workspaceId(), sample.id()).home();
        Map<String, Object> item = DynamoJson.item(Items.projectItem(sample, home));
        // One response for both operations: each reads its own fields (GetItem's Item; Query's Items, counts and
        // last key) and ignores the others, as the SDK ignores any field it does not know.
        Map<String, Object> response = new LinkedHashMap<>();
        response.put("Item", item);
        response.put("Items", List.of(item));
        response.put("Count", 1);
        response.put("ScannedCount", 1);
        response.put("LastEvaluatedKey", DynamoJson.item(Items.key(home)));
        response.put("ConsumedCapacity", capacity(store));
        return answering(store, response);
    }

    /** What DynamoDB bills a read of one small item, eventually consistent: 0.5, a fraction, as on AWS. */
    private static Map<String, Object> capacity(ControlPlaneStore store) {
        return Map.of("TableName", store.tableName(), "CapacityUnits", new BigDecimal("0.5"));
    }

    private static SampleStore answering(ControlPlaneStore store, Map<String, Object> response) {
        DynamoDbClient client = DynamoDbClients.answering(Json.write(response));
        return new SampleStore(store.onClient(client), client);
    }

    @Override
    public void close() {
        client.close();
    }
}
