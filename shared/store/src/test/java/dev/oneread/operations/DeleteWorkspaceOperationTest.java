package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.ordered;
import static dev.oneread.operations.RequestFixtures.versionedUpdate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ExpectedVersion;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link DeleteWorkspaceOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class DeleteWorkspaceOperationTest {
    @Test
    void deleteWorkspace_shouldMarkItPurging_andTakeItOutOfTheRegistry_inOneWrite() {
        UpdateItemRequest expected = versionedUpdate("WS#acme", "META")
                .updateExpression("SET #pr = :pr, #da = :da, #ua = :ua, #v = #v + :one REMOVE #gp, #gs")
                .conditionExpression("attribute_exists(#v) AND #v = :v AND attribute_not_exists(#pr)")
                .expressionAttributeNames(ordered(
                        "#pr",
                        "purgeRun",
                        "#da",
                        "deletedAt",
                        "#ua",
                        "updatedAt",
                        "#v",
                        "version",
                        "#gp",
                        "GSI1PK",
                        "#gs",
                        "GSI1SK"))
                .expressionAttributeValues(ordered(
                        ":pr",
                        AttributeValue.fromS("01JDQ6V7K4N3M2P1R0S9T8V7Z0"),
                        ":da",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        ":ua",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        ":one",
                        AttributeValue.fromN("1"),
                        ":v",
                        AttributeValue.fromN("3")))
                .build();
        assertThat(DeleteWorkspaceOperation.generateRequest(
                        CONTEXT,
                        WorkspaceId.of("acme"),
                        ExpectedVersion.exactly(3),
                        "01JDQ6V7K4N3M2P1R0S9T8V7Z0",
                        Instant.parse("2026-12-02T12:00:00Z")))
                .isEqualTo(expected);
    }
}
