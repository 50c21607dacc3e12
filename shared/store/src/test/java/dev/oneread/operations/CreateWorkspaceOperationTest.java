package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.CREATED;
import static dev.oneread.operations.RequestFixtures.NOW;
import static dev.oneread.operations.RequestFixtures.TOKEN;
import static dev.oneread.operations.RequestFixtures.createPut;
import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.model.Workspace;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * {@link CreateWorkspaceOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class CreateWorkspaceOperationTest {
    @Test
    void createWorkspace_shouldPutConditionallySoItNeverOverwrites_withSettingsAsAMapAndTheCreationToken() {
        Workspace workspace = new Workspace(ACME, "Acme", Map.of("seats", 25), NOW, NOW, 1);
        PutItemRequest expected = createPut(ordered(
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
                CREATED));

        assertThat(CreateWorkspaceOperation.generateRequest(CONTEXT, workspace, TOKEN))
                .isEqualTo(expected);
    }
}
