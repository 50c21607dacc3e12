package dev.oneread.functions.gethottenantreport;

import dev.oneread.function.HttpApiFunction;
import dev.oneread.http.ApiRequest;
import dev.oneread.http.HttpResponse;
import dev.oneread.http.Representations;
import dev.oneread.model.HotPartition;
import dev.oneread.model.Page;
import dev.oneread.operations.GetHotTenantReportOperation;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.secrets.CursorKeySecret;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.stats.HotTenantReport;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * {@code GET /reports/hot-tenants?limit=&cursor=}, for operators: the partitions the stats job last found over the
 * hot-tenant threshold, with the shards it recommends; one Query of the report's partition per page.
 */
public final class GetHotTenantReportFunction extends HttpApiFunction {
    /** What the cursor of this list is bound to, besides the route: there is one report. */
    private static final String SCOPE = "hot-tenants";

    private final HotTenantReport report;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public GetHotTenantReportFunction() {
        this(
                DynamoDbClients.shared(),
                FunctionConfig.fromEnvironment("GetHotTenantReport", CursorKeySecret::fromEnvironment));
    }

    public GetHotTenantReportFunction(DynamoDbClient client, FunctionConfig config) {
        super(config, GetHotTenantReportOperation.INSTANCE);
        this.report = new HotTenantReport(client, config.tableName());
    }

    @Override
    protected HttpResponse handle(ApiRequest request, CallTally tally) {
        request.requireOperator();
        Page<HotPartition> page = report.page(request.limit(), request.cursor(SCOPE), tally);
        return HttpResponse.ok(Representations.hotPartitionPage(page, request.nextCursor(page.next(), SCOPE)));
    }
}
