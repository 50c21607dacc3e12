package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * {@link ListWorkspacesOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class ListWorkspacesOperationTest {
    @Test
    void workspacesIn_shouldQueryOneRegistryShardInIdOrder_afterThePosition() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .indexName("GSI1")
                .keyConditionExpression("#gp = :gp AND #gs > :gs")
                .expressionAttributeNames(ordered("#gp", "GSI1PK", "#gs", "GSI1SK"))
                .expressionAttributeValues(
                        ordered(":gp", AttributeValue.fromS("WSREG#02"), ":gs", AttributeValue.fromS("WS#acme")))
                .scanIndexForward(true)
                .limit(8)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(ListWorkspacesOperation.generateRequestIn(CONTEXT, "WSREG#02", 7, Optional.of("WS#acme")))
                .isEqualTo(expected);
    }
}
