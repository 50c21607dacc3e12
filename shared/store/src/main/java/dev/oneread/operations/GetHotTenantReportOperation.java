package dev.oneread.operations;

import dev.oneread.expr.KeyCondition;
import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.PrimaryKey;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * {@code GET /reports/hot-tenants}, for operators: the hot-tenant report the stats job keeps, 1 Query per page of
 * its own partition. Its entries are decoded by the report's feature (HotTenantReport), which also writes them.
 *
 * <pre>{@code QueryRequest q = GetHotTenantReportOperation.generateRequest(OperationContext.of("oneread"), 50, Optional.empty());}</pre>
 */
public final class GetHotTenantReportOperation extends Operation {
    public static final GetHotTenantReportOperation INSTANCE = new GetHotTenantReportOperation();

    private GetHotTenantReportOperation() {
        super(Descriptor.builder("hot-tenant-report")
                .route("GET", "/reports/hot-tenants")
                .function("GetHotTenantReport")
                .scope(Scope.OPERATOR)
                .keyCondition("EntityRef = " + KeyCodec.hotTenantReportPartition() + ", in partition order")
                .calls("1 Query")
                .budget(CostBudget.of(
                        "1 Query per page, of the report's own partition",
                        1,
                        CostBudget.Fan.NONE,
                        0,
                        CostBudget.PAGE_READ))
                .build());
    }

    /** One page of the report, in partition order (a workspace's shards together), after {@code afterPartition}. */
    public static QueryRequest generateRequest(OperationContext context, int limit, Optional<String> afterPartition) {
        String report = KeyCodec.hotTenantReportPartition();
        return context.table()
                .query(
                        KeyCondition.partitionEquals(KeyCodec.PARTITION_KEY, report)
                                .build(),
                        limit,
                        true,
                        afterPartition.map(partition -> new PrimaryKey(report, partition)),
                        false);
    }

    @Override
    public QueryRequest sampleRequest(Sample sample) {
        return generateRequest(sample.context(), sample.limit(), Optional.empty());
    }

    @Override
    public KeyRange keys(Sample sample) {
        return KeyRange.partition(KeyCodec.hotTenantReportPartition());
    }
}
