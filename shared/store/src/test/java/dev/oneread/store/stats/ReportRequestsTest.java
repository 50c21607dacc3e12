package dev.oneread.store.stats;

import static dev.oneread.operations.RequestFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.HotPartition;
import dev.oneread.model.HotPartitionThreshold;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

class ReportRequestsTest {
    private static final String RUN = "01JDQ6V7K4N3M2P1R0S9T8V7Z0";
    private final ReportRequests requests = new ReportRequests("oneread");

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
        assertThat(requests.putEntry(new HotPartition(
                        WorkspaceId.of("acme"), 3, 6000, 1_200_000, 4, 10, RUN, Instant.parse("2026-12-03T00:00:00Z"))))
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
        assertThat(requests.deleteEntry(WorkspaceId.of("acme"), 0, RUN)).isEqualTo(expected);
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
}
