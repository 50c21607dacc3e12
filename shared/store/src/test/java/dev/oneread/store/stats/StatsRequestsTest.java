package dev.oneread.store.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.ProjectStatus;
import dev.oneread.operations.RequestFixtures;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class StatsRequestsTest {
    @Test
    void writeStats_shouldSetAbsoluteCounts_oncePerRun_withoutBumpingTheVersion() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(RequestFixtures.ordered(
                        "EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .updateExpression("SET #s = :s, #sr = :sr")
                // never into a workspace being purged
                .conditionExpression(
                        "attribute_exists(#v) AND attribute_not_exists(#pr) AND (attribute_not_exists(#sr) OR #sr < :sr2)")
                .expressionAttributeNames(
                        RequestFixtures.ordered("#s", "stats", "#sr", "statsRun", "#v", "version", "#pr", "purgeRun"))
                .expressionAttributeValues(RequestFixtures.ordered(
                        ":s",
                        AttributeValue.fromM(RequestFixtures.ordered(
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
        assertThat(new StatsRequests("oneread")
                        .writeStats(
                                WorkspaceId.of("acme"),
                                new StatsRequests.Count(
                                        Map.of(ProjectStatus.ACTIVE, 3, ProjectStatus.ARCHIVED, 1),
                                        false,
                                        "01JDQ6V7K4N3M2P1R0S9T8V7Z0",
                                        Instant.parse("2026-12-03T00:00:00Z"))))
                .isEqualTo(expected);
    }

    @Test
    void writeShardStats_shouldSetOneShardsPart_throughAnExistingMap_oncePerRun() {
        AttributeValue part = AttributeValue.fromM(RequestFixtures.ordered(
                "ACTIVE", AttributeValue.fromN("2"),
                "PAUSED", AttributeValue.fromN("0"),
                "ARCHIVED", AttributeValue.fromN("0"),
                "total", AttributeValue.fromN("2"),
                "asOf", AttributeValue.fromS("2026-12-03T00:00:00Z"),
                "hot", AttributeValue.fromBool(true),
                "run", AttributeValue.fromS(RUN)));
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName("oneread")
                .key(RequestFixtures.ordered(
                        "EntityRef", AttributeValue.fromS("WS#acme"), "Detail", AttributeValue.fromS("META")))
                .updateExpression("SET #s.#s2 = :s")
                .conditionExpression("attribute_exists(#v) AND attribute_not_exists(#pr) AND attribute_exists(#s)"
                        + " AND (attribute_not_exists(#s.#s2) OR #s.#s2.#r < :r)")
                .expressionAttributeNames(RequestFixtures.ordered(
                        "#s", "stats", "#s2", "s07", "#v", "version", "#pr", "purgeRun", "#r", "run"))
                .expressionAttributeValues(RequestFixtures.ordered(":s", part, ":r", AttributeValue.fromS(RUN)))
                .returnValues(ReturnValue.UPDATED_OLD) // the counts replaced: was the partition reported hot?
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .build();
        assertThat(new StatsRequests("oneread")
                        .writeShardStats(
                                WorkspaceId.of("acme"),
                                7,
                                new StatsRequests.Count(
                                        Map.of(ProjectStatus.ACTIVE, 2),
                                        true,
                                        RUN,
                                        Instant.parse("2026-12-03T00:00:00Z"))))
                .isEqualTo(expected);
    }

    @Test
    void createShardStats_shouldCreateTheMapWithItsFirstPart_onlyWhereThereIsNone() {
        UpdateItemRequest request = new StatsRequests("oneread")
                .createShardStats(
                        WorkspaceId.of("acme"),
                        3,
                        new StatsRequests.Count(Map.of(), false, RUN, Instant.parse("2026-12-03T00:00:00Z")));
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

    private static final String RUN = "01JDQ6V7K4N3M2P1R0S9T8V7Z0";
}
