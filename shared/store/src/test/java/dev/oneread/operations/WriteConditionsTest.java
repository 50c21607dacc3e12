package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.PROJECT_KEY;
import static dev.oneread.operations.RequestFixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The read that explains a refused write, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class WriteConditionsTest {
    @Test
    void readAfterConflict_shouldReadTheItemStronglyConsistent() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(WriteConditions.readAfterConflict(CONTEXT, PROJECT_KEY)).isEqualTo(expected);
    }
}
