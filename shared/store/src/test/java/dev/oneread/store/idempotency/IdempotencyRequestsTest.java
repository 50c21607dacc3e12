package dev.oneread.store.idempotency;

import static dev.oneread.operations.RequestFixtures.key;
import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.StoredResponse;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** The idempotency record's four requests, built in full by hand and compared whole. */
class IdempotencyRequestsTest {
    private static final WorkspaceId ACME = WorkspaceId.of("acme");
    private static final String KEY_HASH = "a".repeat(64);
    private static final String RECORD = "IDEM#" + KEY_HASH;
    private final IdempotencyRequests requests = new IdempotencyRequests("oneread");

    @Test
    void claim_shouldMarkTheRecordInProgress_onlyWhenFreeExpiredOrAbandonedWithTheSameBody_keepingItsReservedId() {
        // GIVEN now, a claim held for 30 s and kept for a day, and the id to reserve if none is yet
        Instant now = Instant.parse("2026-12-02T12:00:00Z");
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", RECORD))
                .updateExpression(
                        "SET #s = :s, #ph = :ph, #h = :h, #ipu = :ipu, #ea = :ea, #ri = if_not_exists(#ri, :ri)"
                                + " REMOVE #rs, #rh, #rb")
                .conditionExpression(
                        "((attribute_not_exists(#er) OR #ea < :ea2) OR #s = :s2 AND #ipu < :ipu2 AND #ph = :ph2)")
                .expressionAttributeNames(ordered(
                        "#s",
                        "status",
                        "#ph",
                        "payloadHash",
                        "#h",
                        "holder",
                        "#ipu",
                        "inProgressUntil",
                        "#ea",
                        "expiresAt",
                        "#ri",
                        "reservedId",
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
                        AttributeValue.fromS("INPROGRESS"),
                        ":ph",
                        AttributeValue.fromS("p".repeat(64)),
                        ":h",
                        AttributeValue.fromS("h".repeat(22)),
                        ":ipu",
                        AttributeValue.fromN("1796212830000"),
                        ":ea",
                        AttributeValue.fromN("1796299200"),
                        ":ri",
                        AttributeValue.fromS("01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        ":ea2",
                        AttributeValue.fromN("1796212800"),
                        ":s2",
                        AttributeValue.fromS("INPROGRESS"),
                        ":ipu2",
                        AttributeValue.fromN("1796212800000"),
                        ":ph2",
                        AttributeValue.fromS("p".repeat(64))))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        // THEN the expiry lives in the condition: a stale record is taken over even before TTL removes it
        assertThat(requests.claim(
                        ACME,
                        KEY_HASH,
                        "p".repeat(64),
                        "h".repeat(22),
                        "01JDQ6V7K4N3M2P1R0S9T8V7W6",
                        now,
                        now.plusSeconds(30),
                        now.plusSeconds(86_400)))
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
                .updateExpression("SET #s = :s, #rs = :rs, #rh = :rh, #rb = :rb REMOVE #ri")
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
                        "#ri",
                        "reservedId",
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
