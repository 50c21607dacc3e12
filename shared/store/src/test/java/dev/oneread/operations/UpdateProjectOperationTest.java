package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.INDEX_KEYS_AND_VERSION;
import static dev.oneread.operations.RequestFixtures.NOW;
import static dev.oneread.operations.RequestFixtures.PROJECT_KEY;
import static dev.oneread.operations.RequestFixtures.ordered;
import static dev.oneread.operations.RequestFixtures.versionedUpdate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.ProjectStatus;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link UpdateProjectOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class UpdateProjectOperationTest {
    @Test
    void updateProject_shouldSetAndRemoveInOneVersionedUpdate_atTheExpectedVersion() {
        UpdateItemRequest expected = versionedUpdate("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")
                .updateExpression("SET #ua = :ua, #s = :s, #gp = :gp, #gs = :gs, #v = #v + :one REMOVE #d")
                .conditionExpression("attribute_exists(#v) AND #v = :v")
                .expressionAttributeNames(
                        ordered("#ua", "updatedAt", "#s", "status", INDEX_KEYS_AND_VERSION, "#d", "description"))
                .expressionAttributeValues(ordered(
                        ":ua",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        ":s",
                        AttributeValue.fromS("PAUSED"),
                        ":gp", // a status change moves the index entry in the same write
                        AttributeValue.fromS("STATUS#PAUSED#03"),
                        ":gs",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        ":one",
                        AttributeValue.fromN("1"),
                        ":v",
                        AttributeValue.fromN("7")))
                .build();

        assertThat(UpdateProjectOperation.generateRequest(
                        CONTEXT,
                        PROJECT_KEY,
                        new ProjectPatch(null, null, true, ProjectStatus.PAUSED),
                        ExpectedVersion.exactly(7),
                        NOW))
                .isEqualTo(expected);
    }

    @Test
    void updateProject_shouldOnlyRequireTheItemToExist_atAnyVersion() {
        UpdateItemRequest expected = versionedUpdate("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")
                .updateExpression("SET #ua = :ua, #n = :n, #d = :d, #v = #v + :one")
                .conditionExpression("attribute_exists(#v)")
                .expressionAttributeNames(
                        ordered("#ua", "updatedAt", "#n", "name", "#d", "description", "#v", "version"))
                .expressionAttributeValues(ordered(
                        ":ua",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        ":n",
                        AttributeValue.fromS("Site"),
                        ":d",
                        AttributeValue.fromS("new"),
                        ":one",
                        AttributeValue.fromN("1")))
                .build();

        assertThat(UpdateProjectOperation.generateRequest(
                        CONTEXT, PROJECT_KEY, new ProjectPatch("Site", "new", false, null), ExpectedVersion.any(), NOW))
                .isEqualTo(expected);
    }
}
