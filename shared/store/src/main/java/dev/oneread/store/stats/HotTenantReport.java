package dev.oneread.store.stats;

import dev.oneread.keys.KeyCodec;
import dev.oneread.model.HotPartition;
import dev.oneread.model.ListPosition;
import dev.oneread.model.Page;
import dev.oneread.operations.GetHotTenantReportOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.internal.StoreCalls;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The hot-tenant report, for operators: the partitions the last stats runs found over the threshold, in partition
 * order. One Query per page of the report's own partition ({@link GetHotTenantReportOperation}); eventually
 * consistent (a report, not a ledger).
 *
 * <pre>{@code Page<HotPartition> page = new HotTenantReport(client, "oneread").page(50, Optional.empty(), tally);}</pre>
 */
public final class HotTenantReport {
    private final StoreCalls calls;
    private final OperationContext context;

    public HotTenantReport(DynamoDbClient client, String tableName) {
        this.calls = new StoreCalls(client, null);
        this.context = OperationContext.of(tableName);
    }

    public Page<HotPartition> page(int limit, Optional<ListPosition> position, CallTally tally) {
        Optional<String> after = position.map(ListPosition::afterSortKey);
        after.ifPresent(KeyCodec::decodePartition); // a position is a partition the report could hold
        QueryResponse response = calls.query(
                GetHotTenantReportOperation.generateRequest(context, limit, after),
                KeyCodec.hotTenantReportPartition(),
                tally);
        return GetHotTenantReportOperation.transformResponse(response, limit);
    }
}
