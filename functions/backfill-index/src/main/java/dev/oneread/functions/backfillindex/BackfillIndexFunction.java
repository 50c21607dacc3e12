package dev.oneread.functions.backfillindex;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.keys.PrimaryKey;
import dev.oneread.runtime.DynamoDbClients;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.runtime.JobFrame;
import dev.oneread.store.backfill.IndexBackfill;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A job, not a route: gives the cross-workspace index keys to items written before the index existed, until the
 * table is read through or the invocation's time runs low. {@code {}} starts at the beginning; the result
 * {@code {"scanned", "indexed", "skipped", "done", "resumeAfter"}} says where to go on: invoke it again with
 * {@code {"resumeAfter": <that>}} until {@code done} is true. Running it again when done finds nothing to do.
 */
public final class BackfillIndexFunction implements RequestStreamHandler {
    private final IndexBackfill backfill;

    /** Used by the Lambda runtime: the shared client and the function's environment. */
    public BackfillIndexFunction() {
        this(
                DynamoDbClients.shared(dev.oneread.store.calls.CallPath.JOB),
                FunctionConfig.fromEnvironment("BackfillIndex"));
    }

    public BackfillIndexFunction(DynamoDbClient client, FunctionConfig config) {
        this.backfill = new IndexBackfill(client, config.tableName(), config.shardPlan(), config.jobPartitionShare());
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        JobFrame.run(input, output, context, (event, tally, log) -> {
            Optional<PrimaryKey> after = event.get("resumeAfter") instanceof Map<?, ?> key
                    ? Optional.of(new PrimaryKey(String.valueOf(key.get("partition")), String.valueOf(key.get("sort"))))
                    : Optional.empty();
            IndexBackfill.Progress progress = backfill.run(after, tally, log);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("scanned", progress.scanned());
            result.put("indexed", progress.indexed());
            result.put("skipped", progress.skipped());
            result.put("done", progress.done());
            result.put(
                    "resumeAfter",
                    progress.resumeAfter()
                            .map(k -> Map.of("partition", k.partition(), "sort", k.sort()))
                            .orElse(null));
            return result;
        });
    }
}
