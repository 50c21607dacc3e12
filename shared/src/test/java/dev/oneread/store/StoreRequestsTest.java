package dev.oneread.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

class StoreRequestsTest {
    private static final WorkspaceId ACME = WorkspaceId.of("acme");
    private static final ProjectId PROJECT = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");
    private final StoreRequests requests = new StoreRequests("oneread");

    @Test
    void getWorkspace_shouldSendOneEventuallyConsistentGetItemOfMeta() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(Map.of("EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.getWorkspace(ACME)).isEqualTo(expected);
    }

    @Test
    void getProject_shouldSendOneGetItemOfTheProjectKey() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(Map.of("EntityRef", AttributeValue.fromS("WS#acme"),
                        "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.getProject(ACME, PROJECT)).isEqualTo(expected);
    }

    @Test
    void listProjects_shouldSendADescendingBeginsWithQuery_withOneLookAheadItem() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(Map.of(":er", AttributeValue.fromS("WS#acme"),
                        ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(21)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.listProjects(ACME, 20, Optional.empty())).isEqualTo(expected);
    }

    @Test
    void listProjects_shouldResumeAfterTheCursorProject_inTheSameWorkspace() {
        QueryRequest request = requests.listProjects(ACME, 5, Optional.of(PROJECT));

        assertThat(request.exclusiveStartKey()).isEqualTo(Map.of("EntityRef", AttributeValue.fromS("WS#acme"),
                "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")));
        assertThat(request.limit()).isEqualTo(6);
    }

    @Test
    void workspaceCollection_shouldQueryMetaThroughTheLastProjectAscending() {
        // BETWEEN leaves bookkeeping items (IDEM#...) out: they sort before META.
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND #d BETWEEN :lo AND :hi")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(Map.of(":er", AttributeValue.fromS("WS#acme"),
                        ":lo", AttributeValue.fromS("META"), ":hi", AttributeValue.fromS("PROJ#~")))
                .scanIndexForward(true)
                .limit(11)
                .exclusiveStartKey(Map.of("EntityRef", AttributeValue.fromS("WS#acme"),
                        "Detail", AttributeValue.fromS("META")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.workspaceCollection(ACME, 10, Optional.of("META"))).isEqualTo(expected);
    }

    @Test
    void createProject_shouldPutConditionallySoItNeverOverwrites() {
        Instant now = Instant.parse("2026-12-02T12:00:00Z");
        Project project = new Project(PROJECT, ACME, "Site", null, ProjectStatus.ACTIVE, now, now, 1);
        PutItemRequest expected = PutItemRequest.builder()
                .tableName("oneread")
                .item(Map.of("EntityRef", AttributeValue.fromS("WS#acme"),
                        "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        "name", AttributeValue.fromS("Site"),
                        "status", AttributeValue.fromS("ACTIVE"),
                        "createdAt", AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        "updatedAt", AttributeValue.fromS("2026-12-02T12:00:00Z"),
                        "version", AttributeValue.fromN("1")))
                .conditionExpression("attribute_not_exists(#er)")
                .expressionAttributeNames(Map.of("#er", "EntityRef"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.createProject(project)).isEqualTo(expected);
    }

    @Test
    void createWorkspace_shouldStoreSettingsAsAMap() {
        Instant now = Instant.parse("2026-12-02T12:00:00Z");
        Workspace workspace = new Workspace(ACME, "Acme", Map.of("seats", 25, "sso", true), now, now, 1);

        Map<String, AttributeValue> item = requests.createWorkspace(workspace).item();

        assertThat(item.get("settings")).isEqualTo(AttributeValue.fromM(Map.of(
                "seats", AttributeValue.fromN("25"), "sso", AttributeValue.fromBool(true))));
        assertThat(item.get("Detail")).isEqualTo(AttributeValue.fromS("META"));
    }
}
