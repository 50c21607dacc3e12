package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.PROJECT;
import static dev.oneread.operations.RequestFixtures.PROJECT_KEY;
import static dev.oneread.operations.RequestFixtures.SHARDED;
import static dev.oneread.operations.RequestFixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ShardPlan;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * {@link GetProjectOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class GetProjectOperationTest {
    @Test
    void getProject_shouldSendOneEventuallyConsistentGetItemOfTheProjectKey() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(GetProjectOperation.generateRequest(CONTEXT, PROJECT_KEY, false))
                .isEqualTo(expected);
    }

    @Test
    void getProject_shouldReadItsShardStronglyConsistent_whenTheWorkspaceIsShardedAndMigrating() {
        // GIVEN a sharded workspace whose move is under way: the shard is the second key to try
        ShardPlan migrating = ShardPlan.parse("acme=4", "acme");
        PrimaryKey home = migrating.locate(ACME, PROJECT).home();
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        // THEN the read of the shard sees a copy the move made a moment ago
        assertThat(GetProjectOperation.generateRequest(
                        OperationContext.of("oneread", migrating),
                        home,
                        migrating.locate(ACME, PROJECT).readConsistently(home)))
                .isEqualTo(expected);
    }

    @Test
    void getProject_shouldReadTheProjectsShard_whenTheWorkspaceIsSharded() {
        ShardPlan plan = ShardPlan.parse("acme=4", "");
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(GetProjectOperation.generateRequest(
                        SHARDED, plan.locate(ACME, PROJECT).home(), false))
                .isEqualTo(expected);
    }
}
