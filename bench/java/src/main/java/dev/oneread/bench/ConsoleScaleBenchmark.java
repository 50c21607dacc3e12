package dev.oneread.bench;

import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.lang.management.ManagementFactory;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * On-demand benchmark (not a test): the console's endpoints on a tenant of a million projects, as the page calls
 * them, on data loaded once by {@link MillionBenchmark} (BatchWriteItem, limits off) and kept on disk.
 *
 * <ul>
 *   <li>{@code load-hot <dataDir> <projects>}: a tenant {@value #HOT} of that many projects over 10 shards.
 *   <li>{@code measure <dataDir> <tenant> [shards]}: start-api on a copy of the data, at DynamoDB's limits; the
 *       background count's duration; then, each the median of {@value #ROUNDS}, the partition list, the first
 *       collection page (2,000 rows, what the page asks for) and the next; the runner's heap used after a GC at
 *       start, after the count and after the pages.
 * </ul>
 *
 * <p>Run: {@code bash bench/console-scale.sh}.
 */
public final class ConsoleScaleBenchmark {
    static final String HOT = "millionhot";
    private static final int ROUNDS = 7;
    private static final int PAGE = 2_000;

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[1]);
        if ("load-hot".equals(args[0])) {
            WorkspaceId tenant = WorkspaceId.of(HOT);
            MillionBenchmark.load(dataDir, tenant, Integer.parseInt(args[2]), ShardPlan.parse(HOT + "=10", ""));
        } else {
            measure(dataDir, args[2], args.length > 3 ? Integer.parseInt(args[3]) : 0);
        }
        System.exit(0);
    }

    private static void measure(Path dataDir, String tenant, int shards) throws Exception {
        long heapAtStart = heapAfterGc();
        TestEngine engine = TestEngine.onData(dataDir, PartitionLimits.DYNAMODB);
        Map<String, String> overrides = shards > 0 ? Map.of("HotTenantShards", tenant + "=" + shards) : Map.of();
        long started = System.nanoTime();
        try (LocalApi api = LocalApi.start(engine, MillionBenchmark.TABLE, overrides)) {
            Map<String, Object> list = get(api, "partitions");
            long firstListMs = (System.nanoTime() - started) / 1_000_000;
            while (list.get("counting") != null) {
                Thread.sleep(500);
                list = get(api, "partitions");
            }
            long countMs = ((Number) list.get("countedInMs")).longValue();
            long items = 0;
            for (Object t : (List<?>) list.get("tenants")) {
                items += ((Number) ((Map<?, ?>) t).get("items")).longValue();
            }
            long heapCounted = heapAfterGc();
            List<Double> partitions = new ArrayList<>();
            List<Double> first = new ArrayList<>();
            List<Double> next = new ArrayList<>();
            String view = "tenant=" + tenant + "&limit=" + PAGE;
            Map<String, Object> page = null;
            for (int round = 0; round < ROUNDS + 1; round++) {
                double ms = timed(() -> get(api, "partitions"));
                Map<String, Object>[] firstPage = new Map[1];
                double firstMs = timed(() -> firstPage[0] = get(api, "collection?" + view));
                page = firstPage[0];
                String cursor = URLEncoder.encode((String) page.get("next"), StandardCharsets.UTF_8);
                double nextMs = timed(() -> get(api, "collection?" + view + "&after=" + cursor));
                if (round > 0) {
                    partitions.add(ms);
                    first.add(firstMs);
                    next.add(nextMs);
                }
            }
            long heapPaged = heapAfterGc();
            String result = String.format(
                    "machine: %d cores, java %s, max heap %d MB; table %s: %,d items (the partition list's total)%n"
                            + "tenant %s%s: %,d items in the collection's total, %d rows a page%n"
                            + "first partition list (counting) answered %d ms after start-api began%n"
                            + "background count (paginated Scan, off the request path): %.1f s%n"
                            + "partition list: median %.0f ms (of %d; min %.0f, max %.0f)%n"
                            + "first collection page: median %.0f ms (of %d; min %.0f, max %.0f)%n"
                            + "next collection page: median %.0f ms (of %d; min %.0f, max %.0f)%n"
                            + "heap used after a GC: %d MB before start-api, %d MB after the count, %d MB after"
                            + " the pages%n",
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"),
                    Runtime.getRuntime().maxMemory() >> 20,
                    MillionBenchmark.TABLE,
                    items,
                    tenant,
                    shards > 0 ? " (" + shards + " shards)" : " (unsharded)",
                    ((Number) page.get("total")).longValue(),
                    PAGE,
                    firstListMs,
                    countMs / 1e3,
                    median(partitions),
                    ROUNDS,
                    Collections.min(partitions),
                    Collections.max(partitions),
                    median(first),
                    ROUNDS,
                    Collections.min(first),
                    Collections.max(first),
                    median(next),
                    ROUNDS,
                    Collections.min(next),
                    Collections.max(next),
                    heapAtStart >> 20,
                    heapCounted >> 20,
                    heapPaged >> 20);
            System.out.print(result);
            Files.writeString(dataDir.resolveSibling(dataDir.getFileName() + ".result.txt"), result);
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    private static double timed(Call call) throws Exception {
        long start = System.nanoTime();
        call.run();
        return (System.nanoTime() - start) / 1e6;
    }

    private static Map<String, Object> get(LocalApi api, String path) throws Exception {
        HttpResponse<String> response = api.send("GET", "/_console/api/" + path, null, List.of(), false);
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + ": " + response.statusCode() + " " + response.body());
        }
        return Json.readObject(response.body());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /** The heap in use after a full collection: what the runner keeps, not what it has yet to collect. */
    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
