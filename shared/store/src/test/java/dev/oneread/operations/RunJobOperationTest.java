package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.oneread.keys.PrimaryKey;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartition;
import dev.oneread.model.HotPartitionThreshold;
import dev.oneread.model.ProjectStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@link RunJobOperation}'s requests, built in full by hand and compared whole: the stats task's, the report
 * entries it keeps, and the purge's (moved from StatsRequestsTest, ReportRequestsTest and PurgeRequestsTest,
 * assertions unchanged).
 */
class RunJobOperationTest {
    private static final String RUN = "01JDQ6V7K4N3M2P1R0S9T8V7Z0";

    // The stats task

    @Test
    void writeStats_shouldSetAbsoluteCounts_oncePerRun_withoutBumpingTheVersion() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(ordered("EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .updateExpression("SET #s = :s, #sr = :sr")
                // never into a workspace being purged
                .conditionExpression(
                        "attribute_exists(#v) AND attribute_not_exists(#pr) AND (attribute_not_exists(#sr) OR #sr < :sr2)")
                .expressionAttributeNames(ordered("#s", "stats", "#sr", "statsRun", "#v", "version", "#pr", "purgeRun"))
                .expressionAttributeValues(ordered(
                        ":s",
                        AttributeValue.fromM(ordered(
                                "ACTIVE", AttributeValue.fromN("3"),
                                "PAUSED", AttributeValue.fromN("0"),
                                "ARCHIVED", AttributeValue.fromN("1"),
                                "total", AttributeValue.fromN("4"),
                                "asOf", AttributeValue.fromS("2026-12-03T00:00:00Z"),
                                "hot", AttributeValue.fromBool(false))),
                        ":sr",
                        AttributeValue.fromS("01JDQ6V7K4N3M2P1R0S9T8V7Z0"),
                        ":sr2", // the builder names each value once per use
                        AttributeValue.fromS("01JDQ6V7K4N3M2P1R0S9T8V7Z0")))
                .returnValues(ReturnValue.UPDATED_OLD) // the counts replaced: was the partition reported hot?
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(RunJobOperation.writeStats(
                        CONTEXT,
                        WorkspaceId.of("acme"),
                        new RunJobOperation.StatsCount(
                                Map.of(ProjectStatus.ACTIVE, 3, ProjectStatus.ARCHIVED, 1),
                                false,
                                "01JDQ6V7K4N3M2P1R0S9T8V7Z0",
                                Instant.parse("2026-12-03T00:00:00Z"))))
                .isEqualTo(expected);
    }

    @Test
    void writeShardStats_shouldSetOneShardsPart_throughAnExistingMap_oncePerRun() {
        AttributeValue part = AttributeValue.fromM(ordered(
                "ACTIVE", AttributeValue.fromN("2"),
                "PAUSED", AttributeValue.fromN("0"),
                "ARCHIVED", AttributeValue.fromN("0"),
                "total", AttributeValue.fromN("2"),
                "asOf", AttributeValue.fromS("2026-12-03T00:00:00Z"),
                "hot", AttributeValue.fromBool(true),
                "run", AttributeValue.fromS(RUN)));
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(ordered("EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .updateExpression("SET #s.#s2 = :s")
                .conditionExpression("attribute_exists(#v) AND attribute_not_exists(#pr) AND attribute_exists(#s)"
                        + " AND (attribute_not_exists(#s.#s2) OR #s.#s2.#r < :r)")
                .expressionAttributeNames(
                        ordered("#s", "stats", "#s2", "s07", "#v", "version", "#pr", "purgeRun", "#r", "run"))
                .expressionAttributeValues(ordered(":s", part, ":r", AttributeValue.fromS(RUN)))
                .returnValues(ReturnValue.UPDATED_OLD) // the counts replaced: was the partition reported hot?
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(RunJobOperation.writeShardStats(
                        CONTEXT,
                        WorkspaceId.of("acme"),
                        7,
                        new RunJobOperation.StatsCount(
                                Map.of(ProjectStatus.ACTIVE, 2), true, RUN, Instant.parse("2026-12-03T00:00:00Z"))))
                .isEqualTo(expected);
    }

    @Test
    void createShardStats_shouldCreateTheMapWithItsFirstPart_onlyWhereThereIsNone() {
        UpdateItemRequest request = RunJobOperation.createShardStats(
                CONTEXT,
                WorkspaceId.of("acme"),
                3,
                new RunJobOperation.StatsCount(Map.of(), false, RUN, Instant.parse("2026-12-03T00:00:00Z")));
        assertThat(request.updateExpression()).isEqualTo("SET #s = :s");
        assertThat(request.conditionExpression())
                .isEqualTo("attribute_exists(#v) AND attribute_not_exists(#pr) AND attribute_not_exists(#s)");
        assertThat(request.expressionAttributeNames())
                .isEqualTo(Map.of("#s", "stats", "#v", "version", "#pr", "purgeRun"));
        assertThat(request.expressionAttributeValues().get(":s").m()).containsOnlyKeys("s03");
        assertThat(request.expressionAttributeValues()
                        .get(":s")
                        .m()
                        .get("s03")
                        .m()
                        .get("run"))
                .isEqualTo(AttributeValue.fromS(RUN));
    }

    // The hot-tenant report entries the stats task keeps

    @Test
    void putEntry_shouldKeyTheEntryByTheHotPartition_unlessALaterRunWroteIt() {
        PutItemRequest expected = PutItemRequest.builder()
                .tableName("oneread")
                .item(ordered(
                        "EntityRef", AttributeValue.fromS("REPORT#hot-tenants"),
                        "Detail", AttributeValue.fromS("WS#acme#03"),
                        "workspaceId", AttributeValue.fromS("acme"),
                        "shard", AttributeValue.fromN("3"),
                        "projects", AttributeValue.fromN("6000"),
                        "bytes", AttributeValue.fromN("1200000"),
                        "currentShards", AttributeValue.fromN("4"),
                        "recommendedShards", AttributeValue.fromN("10"),
                        "run", AttributeValue.fromS(RUN),
                        "asOf", AttributeValue.fromS("2026-12-03T00:00:00Z")))
                .conditionExpression("(attribute_not_exists(#r) OR #r < :r)")
                .expressionAttributeNames(Map.of("#r", "run"))
                .expressionAttributeValues(Map.of(":r", AttributeValue.fromS(RUN)))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(RunJobOperation.putReportEntry(
                        CONTEXT,
                        new HotPartition(
                                WorkspaceId.of("acme"),
                                3,
                                6000,
                                1_200_000,
                                4,
                                10,
                                RUN,
                                Instant.parse("2026-12-03T00:00:00Z"))))
                .isEqualTo(expected);
    }

    @Test
    void deleteEntry_shouldTakeBackOnlyAnEarlierRunsEntry() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(ordered(
                        "EntityRef",
                        AttributeValue.fromS("REPORT#hot-tenants"),
                        "Detail",
                        AttributeValue.fromS("WS#acme")))
                .conditionExpression("#r < :r")
                .expressionAttributeNames(Map.of("#r", "run"))
                .expressionAttributeValues(Map.of(":r", AttributeValue.fromS(RUN)))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(RunJobOperation.deleteReportEntry(CONTEXT, WorkspaceId.of("acme"), 0, RUN))
                .isEqualTo(expected);
    }

    @Test
    void threshold_shouldRecommendTheReadmesFormula_forTheTenantsWholeLoad() {
        HotPartitionThreshold threshold = new HotPartitionThreshold(5_000, 1L << 30);
        assertThat(threshold.exceededBy(5_000, 0)).isFalse();
        assertThat(threshold.exceededBy(5_001, 0)).isTrue();
        assertThat(threshold.exceededBy(10, (1L << 30) + 1)).isTrue();
        // 12,000 projects in one partition: ceil(12,000 / 5,000 x 2) = 5 shards
        assertThat(threshold.recommendedShards(12_000, 0, 0)).isEqualTo(5);
        // a shard of a 4-shard tenant with 6,000: the tenant holds about 24,000, so ceil(24,000 / 5,000 x 2) = 10
        assertThat(threshold.recommendedShards(6_000, 0, 4)).isEqualTo(10);
        // never fewer than 2, never more than the codec's 99
        assertThat(threshold.recommendedShards(1, 0, 0)).isEqualTo(2);
        assertThat(threshold.recommendedShards(10_000_000, 0, 0)).isEqualTo(99);
    }

    // The purge task

    @Test
    void sweepPage_shouldReadAWholePartitionFromItsStart_stronglyConsistent() {
        QueryRequest expected = QueryRequest.builder()
                .tableName("oneread")
                .keyConditionExpression("#er = :er")
                .expressionAttributeNames(Map.of("#er", "EntityRef"))
                .expressionAttributeValues(Map.of(":er", AttributeValue.fromS("WS#acme#03")))
                .scanIndexForward(true)
                .limit(250)
                .consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(RunJobOperation.sweepPage(CONTEXT, "WS#acme#03")).isEqualTo(expected);
    }

    @Test
    void deleteAll_shouldDeleteUpTo25Keys_inOneBatch() {
        List<PrimaryKey> keys = List.of(new PrimaryKey("WS#acme", "PROJ#A"), new PrimaryKey("WS#acme", "IDEM#b"));
        List<WriteRequest> deletes = new ArrayList<>();
        keys.forEach(key -> deletes.add(WriteRequest.builder()
                .deleteRequest(DeleteRequest.builder()
                        .key(ordered(
                                "EntityRef",
                                AttributeValue.fromS(key.partition()),
                                "Detail",
                                AttributeValue.fromS(key.sort())))
                        .build())
                .build()));
        BatchWriteItemRequest expected = BatchWriteItemRequest.builder()
                .requestItems(Map.of("oneread", deletes))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(RunJobOperation.deleteAll(CONTEXT, keys)).isEqualTo(expected);
        assertThatThrownBy(() -> RunJobOperation.deleteAll(CONTEXT, Collections.nCopies(26, keys.get(0))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void deleteWorkspace_shouldDeleteTheItemLast_onlyIfItIsStillThisPurges() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName("oneread")
                .key(ordered("EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .conditionExpression("#pr = :pr")
                .expressionAttributeNames(Map.of("#pr", "purgeRun"))
                .expressionAttributeValues(Map.of(":pr", AttributeValue.fromS("01JDQ6V7K4N3M2P1R0S9T8V7Z0")))
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(RunJobOperation.deleteWorkspace(CONTEXT, WorkspaceId.of("acme"), "01JDQ6V7K4N3M2P1R0S9T8V7Z0"))
                .isEqualTo(expected);
    }
}
