package dev.oneread.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.ExpectedVersion;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspacePatch;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Every request of the workspace and project access patterns, built in full by hand and compared whole. */
public class ControlPlaneRequestsTest {
    /** The request creating an item marks it, so that a retry that meets it knows it for its own. */
    private static final CreationToken TOKEN = CreationToken.of("k".repeat(64), "p".repeat(64));

    private static final WorkspaceId ACME = WorkspaceId.of("acme");
    private static final ProjectId PROJECT = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");
    private static final Instant NOW = Instant.parse("2026-12-02T12:00:00Z");
    private static final PrimaryKey PROJECT_KEY = new PrimaryKey("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6");
    private final ControlPlaneRequests requests = new ControlPlaneRequests("oneread");
    /** acme in 4 shards: CRC-32 of this project id puts it in shard 3. */
    private final ControlPlaneRequests sharded = new ControlPlaneRequests("oneread", ShardPlan.parse("acme=4", ""));

    @Test
    void getWorkspace_shouldSendOneEventuallyConsistentGetItemOfMeta() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.getWorkspace(ACME)).isEqualTo(expected);
    }

    @Test
    void getProject_shouldSendOneEventuallyConsistentGetItemOfTheProjectKey() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.getProject(PROJECT_KEY, false)).isEqualTo(expected);
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
        assertThat(new ControlPlaneRequests("oneread", migrating)
                        .getProject(home, migrating.locate(ACME, PROJECT).readConsistently(home)))
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

        assertThat(sharded.getProject(plan.locate(ACME, PROJECT).home(), false)).isEqualTo(expected);
    }

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

        assertThat(requests.createWorkspace(workspace, TOKEN)).isEqualTo(expected);
    }

    @Test
    void createProject_shouldPutConditionallySoItNeverOverwrites() {
        Project project = new Project(PROJECT, ACME, "Site", null, ProjectStatus.ACTIVE, NOW, NOW, 1);

        assertThat(requests.createProject(project, TOKEN)).isEqualTo(expectedProjectPut("WS#acme"));
    }

    @Test
    void createProject_shouldWriteIntoTheProjectsShard_whenTheWorkspaceIsSharded() {
        Project project = new Project(PROJECT, ACME, "Site", null, ProjectStatus.ACTIVE, NOW, NOW, 1);

        assertThat(sharded.createProject(project, TOKEN)).isEqualTo(expectedProjectPut("WS#acme#03"));
    }

    @Test
    void listProjects_shouldSendADescendingBeginsWithQuery_withOneLookAheadItem() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(21)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.listProjects(ACME, 20, Optional.empty())).isEqualTo(expected);
    }

    @Test
    void listProjects_shouldResumeAfterTheCursorProject_inTheSameWorkspace() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(6)
                .exclusiveStartKey(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.listProjects(ACME, 5, Optional.of(PROJECT))).isEqualTo(expected);
    }

    @Test
    void listProjectsIn_shouldQueryOneShard_resumingInThatShard() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme#07"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(11)
                .exclusiveStartKey(key("WS#acme#07", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(sharded.listProjectsIn("WS#acme#07", 10, Optional.of("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(expected);
    }

    @Test
    void workspaceCollection_shouldQueryMetaThroughTheLastProjectAscending() {
        // BETWEEN leaves bookkeeping items (IDEM#...) out: they sort before META.
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND #d BETWEEN :lo AND :hi")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(Map.of(
                        ":er",
                        AttributeValue.fromS("WS#acme"),
                        ":lo",
                        AttributeValue.fromS("META"),
                        ":hi",
                        AttributeValue.fromS("PROJ#~")))
                .scanIndexForward(true)
                .limit(11)
                .exclusiveStartKey(key("WS#acme", "META"))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.workspaceCollection(ACME, 10, Optional.of("META"))).isEqualTo(expected);
    }

    @Test
    void workspaceCollectionIn_shouldQueryOneShardFromItsFirstItem() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND #d BETWEEN :lo AND :hi")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(Map.of(
                        ":er",
                        AttributeValue.fromS("WS#acme#02"),
                        ":lo",
                        AttributeValue.fromS("META"),
                        ":hi",
                        AttributeValue.fromS("PROJ#~")))
                .scanIndexForward(true)
                .limit(21)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(sharded.workspaceCollectionIn("WS#acme#02", 20, Optional.empty()))
                .isEqualTo(expected);
    }

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

        assertThat(requests.updateWorkspace(
                        ACME, new WorkspacePatch("Acme Inc.", null), ExpectedVersion.exactly(3), NOW))
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

        assertThat(requests.updateWorkspace(
                        ACME, new WorkspacePatch(null, Map.of("sso", true)), ExpectedVersion.any(), NOW))
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

        assertThat(requests.updateWorkspace(ACME, new WorkspacePatch(null, null, 500), ExpectedVersion.exactly(3), NOW))
                .isEqualTo(expected);
    }

    @Test
    void updateProject_shouldSetAndRemoveInOneVersionedUpdate_atTheExpectedVersion() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .updateExpression("SET #ua = :ua, #s = :s, #gp = :gp, #gs = :gs, #v = #v + :one REMOVE #d")
                .conditionExpression("attribute_exists(#v) AND #v = :v")
                .expressionAttributeNames(ordered(
                        "#ua",
                        "updatedAt",
                        "#s",
                        "status",
                        "#gp",
                        "GSI1PK",
                        "#gs",
                        "GSI1SK",
                        "#v",
                        "version",
                        "#d",
                        "description"))
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
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.updateProject(
                        PROJECT_KEY,
                        new ProjectPatch(null, null, true, ProjectStatus.PAUSED),
                        ExpectedVersion.exactly(7),
                        NOW))
                .isEqualTo(expected);
    }

    @Test
    void updateProject_shouldOnlyRequireTheItemToExist_atAnyVersion() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
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
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.updateProject(
                        PROJECT_KEY, new ProjectPatch("Site", "new", false, null), ExpectedVersion.any(), NOW))
                .isEqualTo(expected);
    }

    @Test
    void deleteProject_shouldDeleteOnlyTheExpectedVersion() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .conditionExpression("attribute_exists(#v) AND #v = :v")
                .expressionAttributeNames(Map.of("#v", "version"))
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromN("2")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.deleteProject(PROJECT_KEY, ExpectedVersion.exactly(2)))
                .isEqualTo(expected);
    }

    @Test
    void deleteProject_shouldOnlyRequireTheItemToExist_atAnyVersion() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .conditionExpression("attribute_exists(#v)")
                .expressionAttributeNames(Map.of("#v", "version"))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.deleteProject(PROJECT_KEY, ExpectedVersion.any())).isEqualTo(expected);
    }

    @Test
    void readAfterConflict_shouldReadTheItemStronglyConsistent() {
        GetItemRequest expected = GetItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.readAfterConflict(PROJECT_KEY)).isEqualTo(expected);
    }

    @Test
    void projectsByStatusIn_shouldQueryOneIndexShardNewestFirst_andResumeBelowThePosition() {
        QueryRequest first = QueryRequest.builder()
                .tableName("oneread")
                .indexName("GSI1")
                .keyConditionExpression("#gp = :gp AND begins_with(#gs, :p)")
                .expressionAttributeNames(ordered("#gp", "GSI1PK", "#gs", "GSI1SK"))
                .expressionAttributeValues(
                        ordered(":gp", AttributeValue.fromS("STATUS#ACTIVE#05"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(21)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(requests.projectsByStatusIn("STATUS#ACTIVE#05", 20, Optional.empty()))
                .isEqualTo(first);
        // An index has no ExclusiveStartKey of its own (it would need the table's keys too): the position is a bound
        QueryRequest next = first.toBuilder()
                .keyConditionExpression("#gp = :gp AND #gs < :gs")
                .expressionAttributeValues(ordered(
                        ":gp",
                        AttributeValue.fromS("STATUS#ACTIVE#05"),
                        ":gs",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .build();
        assertThat(requests.projectsByStatusIn("STATUS#ACTIVE#05", 20, Optional.of("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(next);
    }

    @Test
    void workspacesIn_shouldQueryOneRegistryShardInIdOrder_afterThePosition() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .indexName("GSI1")
                .keyConditionExpression("#gp = :gp AND #gs > :gs")
                .expressionAttributeNames(ordered("#gp", "GSI1PK", "#gs", "GSI1SK"))
                .expressionAttributeValues(
                        ordered(":gp", AttributeValue.fromS("WSREG#02"), ":gs", AttributeValue.fromS("WS#acme")))
                .scanIndexForward(true)
                .limit(8)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(requests.workspacesIn("WSREG#02", 7, Optional.of("WS#acme"))).isEqualTo(expected);
    }

    private static PutItemRequest expectedProjectPut(String partition) {
        return PutItemRequest.builder()
                .tableName("oneread")
                .item(Map.of(
                        "EntityRef",
                        AttributeValue.fromS(partition),
                        "Detail",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        "name",
                        AttributeValue.fromS("Site"),
                        "status",
                        AttributeValue.fromS("ACTIVE"),
                        "GSI1PK", // listed by status across workspaces, in index shard crc32(id) mod 8 + 1
                        AttributeValue.fromS("STATUS#ACTIVE#03"),
                        "GSI1SK",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
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
    }

    @Test
    void tombstone_shouldPutTheMarkAloneAtTheShardKey_whateverIsThere() {
        // A DELETE during a move: the mark replaces a copy the move made, and refuses the copy it is about to make.
        PutItemRequest expected = PutItemRequest.builder()
                .tableName("oneread")
                .item(Map.of(
                        "EntityRef", AttributeValue.fromS("WS#acme#03"),
                        "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        "deletedDuringMove", AttributeValue.fromBool(true)))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(sharded.tombstone(
                        ShardPlan.parse("acme=4", "acme").locate(ACME, PROJECT).home()))
                .isEqualTo(expected);
    }

    public static Map<String, AttributeValue> key(String partition, String sort) {
        return Map.of("EntityRef", AttributeValue.fromS(partition), "Detail", AttributeValue.fromS(sort));
    }

    /** A map in the order given, for readability: request equality compares maps by content. */
    @SuppressWarnings("unchecked")
    @Test
    void deleteWorkspace_shouldMarkItPurging_andTakeItOutOfTheRegistry_inOneWrite() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
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
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(requests.deleteWorkspace(
                        WorkspaceId.of("acme"),
                        ExpectedVersion.exactly(3),
                        "01JDQ6V7K4N3M2P1R0S9T8V7Z0",
                        Instant.parse("2026-12-02T12:00:00Z")))
                .isEqualTo(expected);
    }

    public static <V> Map<String, V> ordered(Object... pairs) {
        Map<String, V> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.put((String) pairs[i], (V) pairs[i + 1]);
        }
        return out;
    }
}
