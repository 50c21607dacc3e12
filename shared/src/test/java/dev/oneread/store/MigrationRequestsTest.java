package dev.oneread.store;

import static dev.oneread.store.ControlPlaneRequestsTest.key;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/** The three requests of a hot tenant's move into its shards, built in full by hand and compared whole. */
class MigrationRequestsTest {
    private static final WorkspaceId ACME = WorkspaceId.of("acme");
    private static final ProjectId PROJECT = ProjectId.of("01JDQ6V7K4N3M2P1R0S9T8V7W6");
    private final MigrationRequests requests = new MigrationRequests("oneread");

    @Test
    void unmovedProjects_shouldQueryTheUnshardedPartitionStronglyConsistent() {
        // A migration must not miss a project written a moment ago, so the batch read is consistent.
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(26)
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.unmovedProjects(ACME, 25)).isEqualTo(expected);
    }

    @Test
    void copyProject_shouldPutTheSourceUnderItsShardKey_unlessTheShardHasThatVersionOrNewer() {
        Map<String, AttributeValue> source = Map.of(
                "EntityRef", AttributeValue.fromS("WS#acme"),
                "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                "name", AttributeValue.fromS("Site"),
                "version", AttributeValue.fromN("4"));
        PutItemRequest expected = PutItemRequest.builder()
                .tableName("oneread")
                .item(Map.of(
                        "EntityRef",
                        AttributeValue.fromS("WS#acme#03"),
                        "Detail",
                        AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"),
                        "name",
                        AttributeValue.fromS("Site"),
                        "version",
                        AttributeValue.fromN("4")))
                .conditionExpression("(attribute_not_exists(#er) OR #v < :v)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#v", "version"))
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromN("4")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.copyProject(source, new PrimaryKey("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(expected);
    }

    @Test
    void deleteSource_shouldDeleteTheUnshardedCopy_onlyAtTheVersionCopied() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                .conditionExpression("attribute_exists(#v) AND #v = :v")
                .expressionAttributeNames(Map.of("#v", "version"))
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromN("4")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.deleteSource(ACME, PROJECT, 4)).isEqualTo(expected);
    }

    @Test
    void shardProjects_shouldPageThroughAShardInKeyOrder_stronglyConsistent() {
        // The end of a move looks for tombstones in each shard: ascending, resuming after the last key read.
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er AND begins_with(#d, :p)")
                .expressionAttributeNames(Map.of("#er", "EntityRef", "#d", "Detail"))
                .expressionAttributeValues(
                        Map.of(":er", AttributeValue.fromS("WS#acme#03"), ":p", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(true)
                .limit(26)
                .exclusiveStartKey(Map.of(
                        "EntityRef", AttributeValue.fromS("WS#acme#03"),
                        "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.shardProjects(
                        "WS#acme#03", 25, Optional.of(new PrimaryKey("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))))
                .isEqualTo(expected);
    }

    @Test
    void removeTombstone_shouldDeleteOnlyATombstone_neverAProjectWrittenThereSince() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(Map.of(
                        "EntityRef", AttributeValue.fromS("WS#acme#03"),
                        "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .conditionExpression("attribute_exists(#ddm)")
                .expressionAttributeNames(Map.of("#ddm", "deletedDuringMove"))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(requests.removeTombstone(new PrimaryKey("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(expected);
    }
}
