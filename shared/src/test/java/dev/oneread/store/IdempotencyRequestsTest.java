package dev.oneread.store;

import static dev.oneread.store.ControlPlaneRequestsTest.key;
import static dev.oneread.store.ControlPlaneRequestsTest.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.StoredResponse;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** The idempotency record's four requests, built in full by hand and compared whole. */
class IdempotencyRequestsTest {
    private static final WorkspaceId ACME = WorkspaceId.of("acme");
    private static final String KEY_HASH = "a".repeat(64);
    private static final String RECORD = "IDEM#" + KEY_HASH;
    private final IdempotencyRequests requests = new IdempotencyRequests("oneread");

    @Test
    void claim_shouldPutAnInProgressRecord_onlyWhenFreeExpiredOrAbandoned() {
        // GIVEN now, a claim held for 30 s and kept for a day
        Instant now = Instant.parse("2026-12-02T12:00:00Z");
        PutItemRequest expected = PutItemRequest.builder()
                .tableName("oneread")
                .item(Map.of(
                        "EntityRef",
                        AttributeValue.fromS("WS#acme"),
                        "Detail",
                        AttributeValue.fromS(RECORD),
                        "status",
                        AttributeValue.fromS("INPROGRESS"),
                        "payloadHash",
                        AttributeValue.fromS("p".repeat(64)),
                        "inProgressUntil",
                        AttributeValue.fromN("1796212830000"),
                        "expiresAt",
                        AttributeValue.fromN("1796299200")))
                .conditionExpression("((attribute_not_exists(#er) OR #ea < :ea) OR #s = :s AND #ipu < :ipu)")
                .expressionAttributeNames(
                        ordered("#er", "EntityRef", "#ea", "expiresAt", "#s", "status", "#ipu", "inProgressUntil"))
                .expressionAttributeValues(ordered(
                        ":ea",
                        AttributeValue.fromN("1796212800"),
                        ":s",
                        AttributeValue.fromS("INPROGRESS"),
                        ":ipu",
                        AttributeValue.fromN("1796212800000")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        // THEN the expiry lives in the condition: a stale record is taken over even before TTL removes it
        assertThat(requests.claim(ACME, KEY_HASH, "p".repeat(64), now, now.plusSeconds(30), now.plusSeconds(86_400)))
                .isEqualTo(expected);
    }

    @Test
    void get_shouldReadTheRecordStronglyConsistent() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", RECORD))
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.get(ACME, KEY_HASH)).isEqualTo(expected);
    }

    @Test
    void complete_shouldStoreTheResponse_onlyWhileTheRecordExists() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", RECORD))
                .updateExpression("SET #s = :s, #rs = :rs, #rh = :rh, #rb = :rb")
                .conditionExpression("attribute_exists(#er)")
                .expressionAttributeNames(ordered(
                        "#s",
                        "status",
                        "#rs",
                        "responseStatus",
                        "#rh",
                        "responseHeaders",
                        "#rb",
                        "responseBody",
                        "#er",
                        "EntityRef"))
                .expressionAttributeValues(ordered(
                        ":s",
                        AttributeValue.fromS("COMPLETED"),
                        ":rs",
                        AttributeValue.fromN("201"),
                        ":rh",
                        AttributeValue.fromM(Map.of("etag", AttributeValue.fromS("\"1\""))),
                        ":rb",
                        AttributeValue.fromS("{}")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.complete(ACME, KEY_HASH, new StoredResponse(201, Map.of("etag", "\"1\""), "{}")))
                .isEqualTo(expected);
    }

    @Test
    void release_shouldDeleteTheRecordUnconditionally() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", RECORD))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.release(ACME, KEY_HASH)).isEqualTo(expected);
    }
}
