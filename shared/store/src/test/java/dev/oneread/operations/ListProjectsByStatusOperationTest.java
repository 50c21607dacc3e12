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
 * {@link ListProjectsByStatusOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class ListProjectsByStatusOperationTest {
    @Test
    void projectsByStatusIn_shouldQueryOneIndexShardNewestFirst_andResumeBelowThePosition() {
        QueryRequest first = QueryRequest.builder()
                .tableName("oneread")
                .indexName("GSI1")
                .keyConditionExpression("#gp = :gp AND begins_with(#gs, :p)")
                .expressionAttributeNames(ordered("#gp", "GSI1PK", "#gs", "GSI1SK"))
                .expressionAttributeValues(
                        ordered(":gp", AttributeValue.fromS("STATUS#ACTIVE#05"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(21)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(ListProjectsByStatusOperation.generateRequestIn(CONTEXT, "STATUS#ACTIVE#05", 20, Optional.empty()))
                .isEqualTo(first);
        // An index has no ExclusiveStartKey of its own (it would need the table's keys too): the position is a bound
        QueryRequest next = first.toBuilder()
                .keyConditionExpression("#gp = :gp AND #gs < :gs")
                .expressionAttributeValues(ordered(
                        ":gp",
                        AttributeValue.fromS("STATUS#ACTIVE#05"),
                        ":gs",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .build();
        assertThat(ListProjectsByStatusOperation.generateRequestIn(
                        CONTEXT, "STATUS#ACTIVE#05", 20, Optional.of("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(next);
    }
}
