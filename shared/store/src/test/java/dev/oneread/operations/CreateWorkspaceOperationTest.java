package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.NOW;
import static dev.oneread.operations.RequestFixtures.TOKEN;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.model.Workspace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * {@link CreateWorkspaceOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class CreateWorkspaceOperationTest {
    @Test
    void createWorkspace_shouldPutConditionallySoItNeverOverwrites_withSettingsAsAMapAndTheCreationToken() {
        Workspace workspace = new Workspace(ACME, "Acme", Map.of("seats", 25), NOW, NOW, 1);
        PutItemRequest expected = PutItemRequest.builder()
                .tableName("oneread")
                .item(Map.of(
                        "EntityRef",
                        AttributeValue.fromS("WS#acme"),
                        "Detail",
                        AttributeValue.fromS("META"),
                        "name",
                        AttributeValue.fromS("Acme"),
                        "settings",
                        AttributeValue.fromM(Map.of("seats", AttributeValue.fromN("25"))),
                        "GSI1PK", // its registry entry in the cross-workspace index
                        AttributeValue.fromS("WSREG#07"),
                        "GSI1SK",
                        AttributeValue.fromS("WS#acme"),
                        "createdAt",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        "updatedAt",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        "version",
                        AttributeValue.fromN("1"),
                        "creationToken",
                        AttributeValue.fromS(TOKEN.value())))
                .conditionExpression("attribute_not_exists(#er)")
                .expressionAttributeNames(Map.of("#er", "EntityRef"))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(CreateWorkspaceOperation.generateRequest(CONTEXT, workspace, TOKEN))
                .isEqualTo(expected);
    }
}
