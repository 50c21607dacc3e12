package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
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
 * {@link GetWorkspaceCollectionOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class GetWorkspaceCollectionOperationTest {
    @Test
    void workspaceCollection_shouldQueryMetaThroughTheLastProjectAscending() {
        // BETWEEN leaves bookkeeping items (IDEM#...) out: they sort before META.
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND #d BETWEEN :lo AND :hi")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(Map.of(
                        ":er",
                        AttributeValue.fromS("WS#acme"),
                        ":lo",
                        AttributeValue.fromS("META"),
                        ":hi",
                        AttributeValue.fromS("PROJ#~")))
                .scanIndexForward(true)
                .limit(11)
                .exclusiveStartKey(key("WS#acme", "META"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(GetWorkspaceCollectionOperation.generateRequest(CONTEXT, ACME, 10, Optional.of("META")))
                .isEqualTo(expected);
    }

    @Test
    void workspaceCollectionIn_shouldQueryOneShardFromItsFirstItem() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND #d BETWEEN :lo AND :hi")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(Map.of(
                        ":er",
                        AttributeValue.fromS("WS#acme#02"),
                        ":lo",
                        AttributeValue.fromS("META"),
                        ":hi",
                        AttributeValue.fromS("PROJ#~")))
                .scanIndexForward(true)
                .limit(21)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(GetWorkspaceCollectionOperation.generateRequestIn(SHARDED, "WS#acme#02", 20, Optional.empty()))
                .isEqualTo(expected);
    }
}
