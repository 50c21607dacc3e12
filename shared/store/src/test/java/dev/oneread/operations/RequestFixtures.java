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
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

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

    /**
     * The names an update writes that moves its item's index entry with it and bumps its version, in this order:
     * {@code ordered("#ua", "updatedAt", INDEX_KEYS_AND_VERSION)}.
     */
    static final Map<String, String> INDEX_KEYS_AND_VERSION =
            ordered("#gp", "GSI1PK", "#gs", "GSI1SK", "#v", "version");

    /** The attributes every create writes after the item's own: its dates (now), version 1 and its creation token. */
    static final Map<String, AttributeValue> CREATED = ordered(
            "createdAt",
            AttributeValue.fromS("2026-12-02T12:00:00Z"),
            "updatedAt",
            AttributeValue.fromS("2026-12-02T12:00:00Z"),
            "version",
            AttributeValue.fromN("1"),
            "creationToken",
            AttributeValue.fromS(TOKEN.value()));

    private RequestFixtures() {}

    public static Map<String, AttributeValue> key(String partition, String sort) {
        return Map.of("EntityRef", AttributeValue.fromS(partition), "Detail", AttributeValue.fromS(sort));
    }

    /**
     * The Query of {@code partition}'s projects (its sort keys that begin with {@code PROJ#}) on table oneread, newest
     * first or oldest first, with its capacity: what every read of a partition's projects sends. A test adds its
     * limit, and any start key or strong consistency.
     */
    public static QueryRequest.Builder projectsQuery(String partition, boolean ascending) {
        return QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS(partition), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(ascending)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
    }

    /**
     * The UpdateItem of one item on table oneread that answers with the item it wrote, the item that failed its
     * condition, and its capacity: every versioned update of the API. A test adds its expressions.
     */
    public static UpdateItemRequest.Builder versionedUpdate(String partition, String sort) {
        return UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key(partition, sort))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
    }

    /** The PutItem of {@code item} on table oneread that never overwrites: a create, with its capacity. */
    static PutItemRequest createPut(Map<String, AttributeValue> item) {
        return PutItemRequest.builder()
                .tableName("oneread")
                .item(item)
                .conditionExpression("attribute_not_exists(#er)")
                .expressionAttributeNames(Map.of("#er", "EntityRef"))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
    }

    /**
     * A map in the order given, for readability: request equality compares maps by content. A map among the pairs
     * stands for its own pairs, in its order.
     */
    @SuppressWarnings("unchecked")
    public static <V> Map<String, V> ordered(Object... pairs) {
        Map<String, V> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i] instanceof Map<?, ?> spliced) {
                spliced.forEach((name, value) -> out.put((String) name, (V) value));
                i--; // a map takes one place, not a pair's two
            } else {
                out.put((String) pairs[i], (V) pairs[i + 1]);
            }
        }
        return out;
    }
}
