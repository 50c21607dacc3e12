package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * {@link GetWorkspaceOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class GetWorkspaceOperationTest {
    @Test
    void getWorkspace_shouldSendOneEventuallyConsistentGetItemOfMeta() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(GetWorkspaceOperation.generateRequest(CONTEXT, ACME)).isEqualTo(expected);
    }
}
