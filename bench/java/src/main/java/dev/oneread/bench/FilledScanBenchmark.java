package dev.oneread.bench;

import dev.oneread.json.Json;
import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * On-demand benchmark (not a test): the console's filled Scan over a table of {@link MillionBenchmark}'s load (100,000
 * projects), filtered to 1% of them. On a copy of the data (never the load itself), one project in a hundred, drawn
 * with a fixed seed so the matches spread over the whole table, gets its name prefixed with {@value #NEEDLE}; then
 * the console's {@code POST /_console/api/read} scans with {@code begins_with(name, "needle")}, 25 matches a page,
 * at the default budget, and follows Next to the end: the pages, calls, items read and capacity, the time to the
 * first full page (median of {@value #ROUNDS}) and to the end; and, for comparison, what the old console's one call
 * a page (Limit 25) would have needed.
 *
 * <p>Run: {@code bash bench/filled-scan.sh [dataDir]}.
 */
public final class FilledScanBenchmark {
    private static final String NEEDLE = "needle ";
    private static final int ONE_IN = 100;
    private static final long SEED = 40;
    private static final int LIMIT = 25;
    private static final int ROUNDS = 5;

    public static void main(String[] args) throws Exception {
        measure(Path.of(args[0]));
        System.exit(0);
    }

    private static void measure(Path dataDir) throws Exception {
        TestEngine engine = TestEngine.onData(dataDir, PartitionLimits.DYNAMODB);
        int marked = mark(engine);
        try (LocalApi api = LocalApi.start(engine, MillionBenchmark.TABLE, Map.of())) {
            String form = "{\"mode\":\"scan\",\"limit\":" + LIMIT + ",\"filters\":[{\"attribute\":\"name\","
                    + "\"operator\":\"begins_with\",\"value\":\"" + NEEDLE.strip() + "\"}]";
            List<Double> firsts = new ArrayList<>();
            Map<String, Object> first = null;
            for (int round = 0; round < ROUNDS + 1; round++) {
                long started = System.nanoTime();
                first = read(api, form + "}");
                if (round > 0) {
                    firsts.add((System.nanoTime() - started) / 1e6);
                }
            }
            int pages = 0;
            long calls = 0;
            long read = 0;
            long matches = 0;
            int full = 0;
            int budgetSpent = 0;
            BigDecimal consumed = BigDecimal.ZERO;
            Map<String, Object> page = first;
            long started = System.nanoTime();
            while (true) {
                pages++;
                calls += ((Number) page.get("calls")).longValue();
                read += ((Number) page.get("scannedCount")).longValue();
                matches += ((Number) page.get("count")).longValue();
                consumed = consumed.add(new BigDecimal((String) page.get("consumed")));
                switch ((String) page.get("stopped")) {
                    case "page full" -> full++;
                    case "budget spent" -> budgetSpent++;
                    default -> {}
                }
                String cursor = (String) page.get("cursor");
                if (cursor == null) {
                    break;
                }
                page = read(api, form + ",\"cursor\":\"" + cursor + "\"}");
            }
            double toEndMs = (System.nanoTime() - started) / 1e6 + firsts.get(0);
            String result = String.format(
                    "machine: %d cores, java %s; load average at the end %.2f%n"
                            + "table %s: %,d items read to the end; %,d projects named \"%s...\" (1 in %d, seed %d)%n"
                            + "first full page (%d matches, %s): median %.0f ms (of %d; min %.0f, max %.0f);"
                            + " %s calls, %s items read, %s RCU%n"
                            + "to the end: %d pages (%d full, %d stopped by the budget of %s items, 1 at the end),"
                            + " %,d matches, %,d calls, %,d items read, %s RCU, %.1f s%n"
                            + "the old console (one call of Limit %d a page): %,d pages to the end%n",
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                            .getSystemLoadAverage(),
                    MillionBenchmark.TABLE,
                    read,
                    marked,
                    NEEDLE,
                    ONE_IN,
                    SEED,
                    ((Number) first.get("count")).intValue(),
                    first.get("stopped"),
                    median(firsts),
                    ROUNDS,
                    Collections.min(firsts),
                    Collections.max(firsts),
                    first.get("calls"),
                    first.get("scannedCount"),
                    first.get("consumed"),
                    pages,
                    full,
                    budgetSpent,
                    first.get("budget"),
                    matches,
                    calls,
                    read,
                    consumed.stripTrailingZeros().toPlainString(),
                    toEndMs / 1e3,
                    LIMIT,
                    (read + LIMIT - 1) / LIMIT);
            System.out.print(result);
            Files.writeString(dataDir.resolveSibling(dataDir.getFileName() + ".filled-scan.txt"), result);
            if (matches != marked) {
                throw new IllegalStateException(matches + " matches paged, " + marked + " marked");
            }
        }
    }

    /** Prefixes the name of one project in {@value #ONE_IN}, drawn with a fixed seed; how many. */
    private static int mark(TestEngine engine) {
        Random random = new Random(SEED);
        int marked = 0;
        Map<String, AttributeValue> start = null;
        do {
            ScanResponse page = engine.client.scan(ScanRequest.builder()
                    .tableName(MillionBenchmark.TABLE)
                    .exclusiveStartKey(start)
                    .build());
            for (Map<String, AttributeValue> item : page.items()) {
                if (item.get("Detail").s().startsWith("PROJ#") && random.nextInt(ONE_IN) == 0) {
                    engine.client.updateItem(UpdateItemRequest.builder()
                            .tableName(MillionBenchmark.TABLE)
                            .key(Map.of("EntityRef", item.get("EntityRef"), "Detail", item.get("Detail")))
                            .updateExpression("SET #n = :n")
                            .expressionAttributeNames(Map.of("#n", "name"))
                            .expressionAttributeValues(Map.of(
                                    ":n",
                                    AttributeValue.fromS(
                                            NEEDLE + item.get("name").s())))
                            .build());
                    marked++;
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return marked;
    }

    private static Map<String, Object> read(LocalApi api, String body) throws Exception {
        HttpResponse<String> response = api.send("POST", "/_console/api/read", body, List.of(), false);
        if (response.statusCode() != 200) {
            throw new IllegalStateException("read: " + response.statusCode() + " " + response.body());
        }
        return Json.readObject(response.body());
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
