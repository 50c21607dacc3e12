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
        QueryRequest expected = collectionQuery("WS#acme")
                .limit(11)
                .exclusiveStartKey(key("WS#acme", "META"))
                .build();

        assertThat(GetWorkspaceCollectionOperation.generateRequest(CONTEXT, ACME, 10, Optional.of("META")))
                .isEqualTo(expected);
    }

    @Test
    void workspaceCollectionIn_shouldQueryOneShardFromItsFirstItem() {
        QueryRequest expected = collectionQuery("WS#acme#02").limit(21).build();

        assertThat(GetWorkspaceCollectionOperation.generateRequestIn(SHARDED, "WS#acme#02", 20, Optional.empty()))
                .isEqualTo(expected);
    }

    /** The Query of {@code partition}'s collection, META through its last project, in key order, with its capacity. */
    private static QueryRequest.Builder collectionQuery(String partition) {
        return QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND #d BETWEEN :lo AND :hi")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(Map.of(
                        ":er",
                        AttributeValue.fromS(partition),
                        ":lo",
                        AttributeValue.fromS("META"),
                        ":hi",
                        AttributeValue.fromS("PROJ#~")))
                .scanIndexForward(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL);
    }
}
