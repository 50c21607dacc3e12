package dev.oneread.bench;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.lang.management.ManagementFactory;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * On-demand benchmark (not a test): how fast the console refuses a number out of DynamoDB's range, {@code
 * 1e999999999} by default, as a Scan filter's value, an imported workspace's setting and an edited one's; and what
 * the runner's memory does meanwhile (heap used after a GC before and after, and the bytes every thread of the
 * runner allocated, from com.sun.management.ThreadMXBean). Each request {@value #ROUNDS} times: median and max.
 *
 * <p>Run: {@code bash bench/java-main.sh NumberGuardBench [number]}.
 */
public final class NumberGuardBench {
    private static final int ROUNDS = 200;

    public static void main(String[] args) throws Exception {
        String number = args.length > 0 ? args[0] : "1e999999999";
        TestEngine engine = TestEngine.get();
        String table = "number-guard-" + UUID.randomUUID().toString().substring(0, 8);
        String ws = Api.freshWorkspaceId("guard");
        try (LocalApi api = LocalApi.start(engine, table, Map.of())) {
            api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Guard\"}", List.of(), true);
            Map<String, String> requests = Map.of(
                    "filter",
                    "/_console/api/read|{\"mode\":\"scan\",\"filters\":[{\"attribute\":\"version\",\"value\":\""
                            + number + "\",\"type\":\"N\"}]}",
                    "import",
                    "/_console/api/fixtures|" + Json.write(Map.of("Items", List.of(workspace("guardnew", number)))),
                    "edit",
                    "/_console/api/item/edit|"
                            + Json.write(Map.of(
                                    "partition",
                                    "WS#" + ws,
                                    "sort",
                                    "META",
                                    "version",
                                    1,
                                    "attributes",
                                    attributes(number))));
            for (String kind : List.of("filter", "import", "edit")) {
                String[] pathAndBody = requests.get(kind).split("\\|", 2);
                send(api, pathAndBody); // warm
                long heapBefore = heapAfterGc();
                long allocatedBefore = allocated();
                List<Double> ms = new ArrayList<>();
                int status = 0;
                for (int i = 0; i < ROUNDS; i++) {
                    long started = System.nanoTime();
                    status = send(api, pathAndBody).statusCode();
                    ms.add((System.nanoTime() - started) / 1e6);
                }
                long allocatedPerRequest = (allocated() - allocatedBefore) / ROUNDS;
                long heapAfter = heapAfterGc();
                Collections.sort(ms);
                System.out.printf(
                        "%s %s: status %d, median %.2f ms, max %.2f ms over %d; heap after GC %d -> %d KB;"
                                + " allocated per request (all threads) %d KB%n",
                        kind,
                        number,
                        status,
                        ms.get(ms.size() / 2),
                        ms.get(ms.size() - 1),
                        ROUNDS,
                        heapBefore / 1024,
                        heapAfter / 1024,
                        allocatedPerRequest / 1024);
            }
        }
        System.exit(0);
    }

    private static HttpResponse<String> send(LocalApi api, String[] pathAndBody) throws Exception {
        return ConsoleHttp.send(api, "POST", pathAndBody[0], "application/json", pathAndBody[1]);
    }

    private static Map<String, Object> attributes(String number) {
        return Map.of(
                "name", Map.of("S", "Guard"),
                "settings", Map.of("M", Map.of("n", Map.of("N", number))),
                "createdAt", Map.of("S", "2026-01-01T00:00:00Z"),
                "updatedAt", Map.of("S", "2026-01-01T00:00:00Z"),
                "version", Map.of("N", "1"));
    }

    private static Map<String, Object> workspace(String id, String number) {
        Map<String, Object> item = new java.util.LinkedHashMap<>(attributes(number));
        item.put("EntityRef", Map.of("S", "WS#" + id));
        item.put("Detail", Map.of("S", "META"));
        return item;
    }

    private static long heapAfterGc() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Bytes allocated so far by every live thread of this JVM (the runner and its Jetty threads). */
    private static long allocated() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
            sum += Math.max(0, bytes);
        }
        return sum;
    }
}
