package dev.oneread.operations;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The inputs the request tests build from, and the helpers that write their expected requests. */
public final class RequestFixtures {
    /** The request creating an item marks it, so that a retry that meets it knows it for its own. */
    static final CreationToken TOKEN = CreationToken.of("k".repeat(64), "p".repeat(64));

    static final WorkspaceId ACME = WorkspaceId.of("acme");
    static final ProjectId PROJECT = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");
    static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    static final PrimaryKey PROJECT_KEY = new PrimaryKey("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6");
    static final OperationContext CONTEXT = OperationContext.of("oneread");
    /** acme in 4 shards: CRC-32 of this project id puts it in shard 3. */
    static final OperationContext SHARDED = OperationContext.of("oneread", ShardPlan.parse("acme=4", ""));

    private RequestFixtures() {}

    public static Map<String, AttributeValue> key(String partition, String sort) {
        return Map.of("EntityRef", AttributeValue.fromS(partition), "Detail", AttributeValue.fromS(sort));
    }

    /** A map in the order given, for readability: request equality compares maps by content. */
    @SuppressWarnings("unchecked")
    public static <V> Map<String, V> ordered(Object... pairs) {
        Map<String, V> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put((String) pairs[i], (V) pairs[i + 1]);
        }
        return out;
    }
}
