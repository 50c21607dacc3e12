package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.PrimaryKey;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** {@link BackfillIndexOperation}'s requests (moved from BackfillRequestsTest, assertions unchanged). */
class BackfillIndexOperationTest {

    @Test
    void unindexed_shouldScanAConsistentPage_returningOnlyItemsWithoutIndexKeys() {
        ScanRequest expected = ScanRequest.builder()
                .tableName("oneread")
                .filterExpression("attribute_not_exists(#gp)")
                .expressionAttributeNames(Map.of("#gp", "GSI1PK"))
                .limit(100)
                .consistentRead(true)
                .exclusiveStartKey(RequestFixtures.ordered(
                        "EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(BackfillIndexOperation.unindexed(CONTEXT, Optional.of(new PrimaryKey("WS#acme", "META")), 100))
                .isEqualTo(expected);
    }

    @Test
    void indexProject_shouldAddTheKeysOfTheStatusItRead_onlyIfStillThatStatusAndStillUnindexed() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(RequestFixtures.ordered(
                        "EntityRef",
                        AttributeValue.fromS("WS#acme"),
                        "Detail",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .updateExpression("SET #gp = :gp, #gs = :gs")
                .conditionExpression("attribute_exists(#v) AND #s = :s AND attribute_not_exists(#gp)")
                .expressionAttributeNames(
                        RequestFixtures.ordered("#gp", "GSI1PK", "#gs", "GSI1SK", "#v", "version", "#s", "status"))
                .expressionAttributeValues(RequestFixtures.ordered(
                        ":gp",
                        AttributeValue.fromS("STATUS#PAUSED#03"),
                        ":gs",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        ":s",
                        AttributeValue.fromS("PAUSED")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(BackfillIndexOperation.indexProject(
                        CONTEXT, new PrimaryKey("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"), "PAUSED"))
                .isEqualTo(expected);
    }
}
