package dev.oneread.operations;

import static dev.oneread.operations.RequestFixtures.CONTEXT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/** {@link GetHotTenantReportOperation}'s page request (moved from ReportRequestsTest). */
class GetHotTenantReportOperationTest {
    @Test
    void page_shouldQueryTheReportPartition_afterTheLastPartitionListed() {
        QueryRequest page = GetHotTenantReportOperation.generateRequest(CONTEXT, 50, Optional.of("WS#acme#03"));
        assertThat(page.keyConditionExpression()).isEqualTo("#er = :er");
        assertThat(page.expressionAttributeValues()).containsEntry(":er", AttributeValue.fromS("REPORT#hot-tenants"));
        assertThat(page.limit()).isEqualTo(51);
        assertThat(page.exclusiveStartKey())
                .isEqualTo(Map.of(
                        "EntityRef", AttributeValue.fromS("REPORT#hot-tenants"),
                        "Detail", AttributeValue.fromS("WS#acme#03")));
    }
}
