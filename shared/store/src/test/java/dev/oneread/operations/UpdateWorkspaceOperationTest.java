package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.NOW;
import static dev.oneread.operations.RequestFixtures.key;
import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.WorkspacePatch;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link UpdateWorkspaceOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class UpdateWorkspaceOperationTest {
    @Test
    void updateWorkspace_shouldBumpTheVersion_onlyAtTheExpectedOne() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .updateExpression("SET #ua = :ua, #n = :n, #gp = :gp, #gs = :gs, #v = #v + :one")
                // the workspace must not be being purged: a DELETE wins over every later write
                .conditionExpression("attribute_exists(#v) AND #v = :v AND attribute_not_exists(#pr)")
                .expressionAttributeNames(ordered(
                        "#ua",
                        "updatedAt",
                        "#n",
                        "name",
                        "#gp",
                        "GSI1PK",
                        "#gs",
                        "GSI1SK",
                        "#v",
                        "version",
                        "#pr",
                        "purgeRun"))
                .expressionAttributeValues(ordered(
                        ":ua",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        ":n",
                        AttributeValue.fromS("Acme Inc."),
                        ":gp", // the registry entry's keys, the same every time
                        AttributeValue.fromS("WSREG#07"),
                        ":gs",
                        AttributeValue.fromS("WS#acme"),
                        ":one",
                        AttributeValue.fromN("1"),
                        ":v",
                        AttributeValue.fromN("3")))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(UpdateWorkspaceOperation.generateRequest(
                        CONTEXT, ACME, new WorkspacePatch("Acme Inc.", null), ExpectedVersion.exactly(3), NOW))
                .isEqualTo(expected);
    }

    @Test
    void updateWorkspace_shouldOnlyRequireTheItemToExist_atAnyVersion() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .updateExpression("SET #ua = :ua, #s = :s, #gp = :gp, #gs = :gs, #v = #v + :one")
                .conditionExpression("attribute_exists(#v) AND attribute_not_exists(#pr)")
                .expressionAttributeNames(ordered(
                        "#ua",
                        "updatedAt",
                        "#s",
                        "settings",
                        "#gp",
                        "GSI1PK",
                        "#gs",
                        "GSI1SK",
                        "#v",
                        "version",
                        "#pr",
                        "purgeRun"))
                .expressionAttributeValues(ordered(
                        ":ua",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        ":s",
                        AttributeValue.fromM(Map.of("sso", AttributeValue.fromBool(true))),
                        ":gp",
                        AttributeValue.fromS("WSREG#07"),
                        ":gs",
                        AttributeValue.fromS("WS#acme"),
                        ":one",
                        AttributeValue.fromN("1")))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(UpdateWorkspaceOperation.generateRequest(
                        CONTEXT, ACME, new WorkspacePatch(null, Map.of("sso", true)), ExpectedVersion.any(), NOW))
                .isEqualTo(expected);
    }

    @Test
    void updateWorkspace_shouldSetTheProjectQuotaAsAnAttributeOfItsOwn_notASetting() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .updateExpression("SET #ua = :ua, #pq = :pq, #gp = :gp, #gs = :gs, #v = #v + :one")
                .conditionExpression("attribute_exists(#v) AND #v = :v AND attribute_not_exists(#pr)")
                .expressionAttributeNames(ordered(
                        "#ua",
                        "updatedAt",
                        "#pq",
                        "projectQuota",
                        "#gp",
                        "GSI1PK",
                        "#gs",
                        "GSI1SK",
                        "#v",
                        "version",
                        "#pr",
                        "purgeRun"))
                .expressionAttributeValues(ordered(
                        ":ua",
                        AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        ":pq",
                        AttributeValue.fromN("500"),
                        ":gp",
                        AttributeValue.fromS("WSREG#07"),
                        ":gs",
                        AttributeValue.fromS("WS#acme"),
                        ":one",
                        AttributeValue.fromN("1"),
                        ":v",
                        AttributeValue.fromN("3")))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(UpdateWorkspaceOperation.generateRequest(
                        CONTEXT, ACME, new WorkspacePatch(null, null, 500), ExpectedVersion.exactly(3), NOW))
                .isEqualTo(expected);
    }
}
