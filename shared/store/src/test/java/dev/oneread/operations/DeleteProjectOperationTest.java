package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.PROJECT;
import static dev.oneread.operations.RequestFixtures.PROJECT_KEY;
import static dev.oneread.operations.RequestFixtures.SHARDED;
import static dev.oneread.operations.RequestFixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.ShardPlan;
import dev.oneread.model.ExpectedVersion;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * {@link DeleteProjectOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class DeleteProjectOperationTest {
    @Test
    void deleteProject_shouldDeleteOnlyTheExpectedVersion() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .conditionExpression("attribute_exists(#v) AND #v = :v")
                .expressionAttributeNames(Map.of("#v", "version"))
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromN("2")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(DeleteProjectOperation.generateRequest(CONTEXT, PROJECT_KEY, ExpectedVersion.exactly(2)))
                .isEqualTo(expected);
    }

    @Test
    void deleteProject_shouldOnlyRequireTheItemToExist_atAnyVersion() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .conditionExpression("attribute_exists(#v)")
                .expressionAttributeNames(Map.of("#v", "version"))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(DeleteProjectOperation.generateRequest(CONTEXT, PROJECT_KEY, ExpectedVersion.any()))
                .isEqualTo(expected);
    }

    @Test
    void tombstone_shouldPutTheMarkAloneAtTheShardKey_whateverIsThere() {
        // A DELETE during a move: the mark replaces a copy the move made, and refuses the copy it is about to make.
        PutItemRequest expected = PutItemRequest.builder()
                .tableName("oneread")
                .item(Map.of(
                        "EntityRef", AttributeValue.fromS("WS#acme#03"),
                        "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        "deletedDuringMove", AttributeValue.fromBool(true)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(DeleteProjectOperation.tombstone(
                        SHARDED,
                        ShardPlan.parse("acme=4", "acme").locate(ACME, PROJECT).home()))
                .isEqualTo(expected);
    }
}
