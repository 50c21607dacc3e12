package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.INDEX_KEYS_AND_VERSION;
import static dev.oneread.operations.RequestFixtures.NOW;
import static dev.oneread.operations.RequestFixtures.ordered;
import static dev.oneread.operations.RequestFixtures.versionedUpdate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.WorkspacePatch;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link UpdateWorkspaceOperation}'s requests, built in full by hand and compared whole (moved from
 * ControlPlaneRequestsTest).
 */
class UpdateWorkspaceOperationTest {
    @Test
    void updateWorkspace_shouldBumpTheVersion_onlyAtTheExpectedOne() {
        UpdateItemRequest expected = expectedUpdate("#n", "name", AttributeValue.fromS("Acme Inc."), 3);

        assertThat(UpdateWorkspaceOperation.generateRequest(
                        CONTEXT, ACME, new WorkspacePatch("Acme Inc.", null), ExpectedVersion.exactly(3), NOW))
                .isEqualTo(expected);
    }

    @Test
    void updateWorkspace_shouldOnlyRequireTheItemToExist_atAnyVersion() {
        UpdateItemRequest expected = expectedUpdate(
                "#s", "settings", AttributeValue.fromM(Map.of("sso", AttributeValue.fromBool(true))), null);

        assertThat(UpdateWorkspaceOperation.generateRequest(
                        CONTEXT, ACME, new WorkspacePatch(null, Map.of("sso", true)), ExpectedVersion.any(), NOW))
                .isEqualTo(expected);
    }

    @Test
    void updateWorkspace_shouldSetTheProjectQuotaAsAnAttributeOfItsOwn_notASetting() {
        UpdateItemRequest expected = expectedUpdate("#pq", "projectQuota", AttributeValue.fromN("500"), 3);

        assertThat(UpdateWorkspaceOperation.generateRequest(
                        CONTEXT, ACME, new WorkspacePatch(null, null, 500), ExpectedVersion.exactly(3), NOW))
                .isEqualTo(expected);
    }

    /**
     * The update of acme's META that sets one attribute, {@code #name = value}: with updatedAt, the registry entry's
     * keys (the same every time) and the version bumped, at {@code version} (null: any).
     */
    private static UpdateItemRequest expectedUpdate(
            String name, String attribute, AttributeValue value, Integer version) {
        String placeholder = ":" + name.substring(1);
        Map<String, AttributeValue> values = ordered(
                ":ua",
                AttributeValue.fromS("2026-12-02T12:00:00Z"),
                placeholder,
                value,
                ":gp",
                AttributeValue.fromS("WSREG#07"),
                ":gs",
                AttributeValue.fromS("WS#acme"),
                ":one",
                AttributeValue.fromN("1"));
        if (version != null) {
            values.put(":v", AttributeValue.fromN(String.valueOf(version)));
        }
        return versionedUpdate("WS#acme", "META")
                .updateExpression(
                        "SET #ua = :ua, " + name + " = " + placeholder + ", #gp = :gp, #gs = :gs, #v = #v + :one")
                // the workspace must not be being purged: a DELETE wins over every later write
                .conditionExpression("attribute_exists(#v)" + (version == null ? "" : " AND #v = :v")
                        + " AND attribute_not_exists(#pr)")
                .expressionAttributeNames(
                        ordered("#ua", "updatedAt", name, attribute, INDEX_KEYS_AND_VERSION, "#pr", "purgeRun"))
                .expressionAttributeValues(values)
                .build();
    }
}
