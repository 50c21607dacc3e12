package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.ACME;
import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.PROJECT;
import static dev.oneread.operations.RequestFixtures.key;
import static dev.oneread.operations.RequestFixtures.projectsQuery;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.PrimaryKey;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * {@link MigrateHotTenantOperation}'s requests, a hot tenant's move into its shards, built in full by hand and
 * compared whole (moved from MigrationRequestsTest, assertions unchanged).
 */
class MigrateHotTenantOperationTest {

    @Test
    void unmovedProjects_shouldQueryTheUnshardedPartitionStronglyConsistent() {
        // A migration must not miss a project written a moment ago, so the batch read is consistent.
        QueryRequest expected =
                projectsQuery("WS#acme", false).limit(26).consistentRead(true).build();

        assertThat(MigrateHotTenantOperation.unmovedProjects(CONTEXT, ACME, 25, Optional.empty()))
                .isEqualTo(expected);
    }

    @Test
    void unmovedProjects_afterAPosition_shouldReadOnFromIt() {
        // A run's next batch reads on from the last project its previous batch read, newest first.
        PrimaryKey last = new PrimaryKey("WS#acme", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6");

        QueryRequest next = MigrateHotTenantOperation.unmovedProjects(CONTEXT, ACME, 25, Optional.of(last));

        assertThat(next)
                .isEqualTo(MigrateHotTenantOperation.unmovedProjects(CONTEXT, ACME, 25, Optional.empty()).toBuilder()
                        .exclusiveStartKey(Map.of(
                                "EntityRef", AttributeValue.fromS("WS#acme"),
                                "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                        .build());
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

        assertThat(MigrateHotTenantOperation.copyProject(
                        CONTEXT, source, new PrimaryKey("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
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

        assertThat(MigrateHotTenantOperation.deleteSource(CONTEXT, ACME, PROJECT, 4))
                .isEqualTo(expected);
    }

    @Test
    void shardProjects_shouldPageThroughAShardInKeyOrder_stronglyConsistent() {
        // The end of a move looks for tombstones in each shard: ascending, resuming after the last key read.
        QueryRequest expected = projectsQuery("WS#acme#03", true)
                .limit(26)
                .exclusiveStartKey(Map.of(
                        "EntityRef", AttributeValue.fromS("WS#acme#03"),
                        "Detail", AttributeValue.fromS("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .consistentRead(true)
                .build();

        assertThat(MigrateHotTenantOperation.shardProjects(
                        CONTEXT,
                        "WS#acme#03",
                        25,
                        Optional.of(new PrimaryKey("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))))
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

        assertThat(MigrateHotTenantOperation.removeTombstone(
                        CONTEXT, new PrimaryKey("WS#acme#03", "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6")))
                .isEqualTo(expected);
    }

    @Test
    void holdLease_shouldTakeOrRenewTheLease_onlyWhileNoOtherRunHoldsIt_andNeverInAPurge() {
        // The lease is taken and renewed by one write, whose condition checks the purge's mark itself: no run
        // starts, and no copy follows, once a DELETE has marked the workspace. The version is not bumped.
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .updateExpression("SET #mr = :mr, #mu = :mu")
                .conditionExpression("attribute_exists(#v) AND attribute_not_exists(#pr)"
                        + " AND ((attribute_not_exists(#mr) OR #mr = :mr2) OR #mu < :mu2)")
                .expressionAttributeNames(RequestFixtures.ordered(
                        "#mr", "migrationRun", "#mu", "migrationUntil", "#v", "version", "#pr", "purgeRun"))
                .expressionAttributeValues(RequestFixtures.ordered(
                        ":mr", AttributeValue.fromS(RUN),
                        ":mu", AttributeValue.fromN("1796385617000"),
                        ":mr2", AttributeValue.fromS(RUN),
                        ":mu2", AttributeValue.fromN("1796385600000")))
                .returnValues(ReturnValue.NONE)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(MigrateHotTenantOperation.holdLease(CONTEXT, ACME, RUN, NOW.plusSeconds(17), NOW))
                .isEqualTo(expected);
    }

    @Test
    void releaseLease_shouldEndTheHoldersLease_keepingWhenItEnded() {
        // The end stays on the item: a purge waits out its fence from it.
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .updateExpression("SET #mu = :mu REMOVE #mr")
                .conditionExpression("#mr = :mr")
                .expressionAttributeNames(RequestFixtures.ordered("#mu", "migrationUntil", "#mr", "migrationRun"))
                .expressionAttributeValues(RequestFixtures.ordered(
                        ":mu", AttributeValue.fromN("1796385600000"), ":mr", AttributeValue.fromS(RUN)))
                .returnValues(ReturnValue.NONE)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(MigrateHotTenantOperation.releaseLease(CONTEXT, ACME, RUN, NOW))
                .isEqualTo(expected);
    }

    @Test
    void shortenLease_shouldKeepTheLeaseUntilAWriteInFlightCanNoLongerLand() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(key("WS#acme", "META"))
                .updateExpression("SET #mu = :mu")
                .conditionExpression("#mr = :mr")
                .expressionAttributeNames(RequestFixtures.ordered("#mu", "migrationUntil", "#mr", "migrationRun"))
                .expressionAttributeValues(RequestFixtures.ordered(
                        ":mu", AttributeValue.fromN("1796385607000"), ":mr", AttributeValue.fromS(RUN)))
                .returnValues(ReturnValue.NONE)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();

        assertThat(MigrateHotTenantOperation.shortenLease(CONTEXT, ACME, RUN, NOW.plusSeconds(7)))
                .isEqualTo(expected);
    }

    private static final String RUN = "01JDQ6V7K4N3M2P1R0S9T8V7Z0";
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
}
