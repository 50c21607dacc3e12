package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.PROJECT;
import static dev.oneread.operations.RequestFixtures.SHARDED;
import static dev.oneread.operations.RequestFixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * {@link ListProjectsOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class ListProjectsOperationTest {
    @Test
    void listProjects_shouldSendADescendingBeginsWithQuery_withOneLookAheadItem() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(21)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(ListProjectsOperation.generateRequest(CONTEXT, ACME, 20, Optional.empty()))
                .isEqualTo(expected);
    }

    @Test
    void listProjects_shouldResumeAfterTheCursorProject_inTheSameWorkspace() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(6)
                .exclusiveStartKey(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(ListProjectsOperation.generateRequest(CONTEXT, ACME, 5, Optional.of(PROJECT)))
                .isEqualTo(expected);
    }

    @Test
    void listProjectsIn_shouldQueryOneShard_resumingInThatShard() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme#07"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(11)
                .exclusiveStartKey(key("WS#acme#07", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(ListProjectsOperation.generateRequestIn(
                        SHARDED, "WS#acme#07", 10, Optional.of("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(expected);
    }
}
