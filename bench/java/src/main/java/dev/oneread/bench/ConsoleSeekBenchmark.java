package dev.oneread.bench;

import dev.oneread.local.engine.PartitionLimits;
import dev.oneread.tests.support.Chromium;
import dev.oneread.tests.support.CollectionOrder;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * On-demand benchmark (not a test): seek in the console, in Debian's chromium at 1280x800, on a copy of a loaded
 * table (bench/million.sh's, {@code MillionBenchmark load}): the first page of the tenant's collection from the
 * click (and the long tasks during it), then the item at position {@code at} found by its id in the "go to" box,
 * the newest end and the oldest, each from the click or Enter to its row on screen, in the browser's own clock;
 * the page's JS heap (CDP Performance.getMetrics, after a collection) and the rows in the page's model after each.
 *
 * <p>Run: {@code bash bench/console-seek.sh [data dir] [position]}; never on the data in place (it is copied).
 */
public final class ConsoleSeekBenchmark {
    private static final int ROUNDS = 5;
    /** How long after a click its long tasks are counted: main went on loading pages by itself after the first. */
    private static final int SETTLE_MS = 5_000;

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[0]);
        int at = args.length > 1 ? Integer.parseInt(args[1]) : 62_000;
        String tenant = args.length > 2 ? args[2] : MillionBenchmark.TENANT.value();
        TestEngine engine = TestEngine.onData(dataDir, PartitionLimits.DYNAMODB);
        try (LocalApi api = LocalApi.start(engine, MillionBenchmark.TABLE, Map.of())) {
            List<String> sorts = CollectionOrder.sortKeys(
                    engine.client, MillionBenchmark.TABLE, CollectionOrder.partitions(tenant, 0));
            String target = sorts.get(at);
            String newest = sorts.stream()
                    .filter(s -> s.startsWith("PROJ#"))
                    .reduce((a, b) -> b)
                    .orElseThrow();
            ChromeDriver browser = Chromium.start();
            try {
                browser.manage().window().setSize(new Dimension(1280, 800));
                browser.executeCdpCommand(
                        "Page.addScriptToEvaluateOnNewDocument",
                        Map.of(
                                "source",
                                "window.longTasks = []; new PerformanceObserver((list) => {"
                                        + " for (const e of list.getEntries()) window.longTasks.push(e.duration); })"
                                        + ".observe({ type: 'longtask', buffered: true });"));
                browser.executeCdpCommand("Performance.enable", Map.of());
                browser.get(api.uri("/_console").toString());
                waitFor(
                        browser,
                        "document.getElementById('status').textContent === 'live'"
                                + " && !document.getElementById('table-name').textContent.includes('counting')"
                                + " && document.querySelector(`#partitions .tenant-name[data-tenant='" + tenant
                                + "']`)");
                double heapStart = heapMb(browser);
                if (args.length > 3 && args[3].equals("first-only")) {
                    firstOnly(browser, tenant, heapStart);
                    return;
                }
                List<Double> first = new ArrayList<>();
                List<Double> found = new ArrayList<>();
                List<Double> newestMs = new ArrayList<>();
                List<Double> oldestMs = new ArrayList<>();
                List<String> longTasks = new ArrayList<>();
                List<Long> rows = new ArrayList<>();
                double heapFirst = 0;
                for (int round = 0; round < ROUNDS + 1; round++) {
                    browser.executeScript("window.longTasks = [];");
                    double ms = timed(
                            browser,
                            "document.querySelector(`#partitions .tenant-name[data-tenant='" + tenant + "']`).click();",
                            "document.getElementById('collection-title').dataset.view === '" + tenant + "'"
                                    + " && document.querySelector('#collection tbody tr[data-sort=\"META\"]')");
                    @SuppressWarnings("unchecked")
                    List<Number> tasks = (List<Number>) browser.executeScript("return window.longTasks;");
                    if (round == 0) {
                        heapFirst = heapMb(browser);
                        continue;
                    }
                    first.add(ms);
                    longTasks.add(tasks.size() + " (longest "
                            + tasks.stream()
                                    .mapToDouble(Number::doubleValue)
                                    .max()
                                    .orElse(0) + " ms)");
                    rows.add(loaded(browser));
                    found.add(timed(
                            browser,
                            "const f = document.getElementById('collection-find'); f.value = '"
                                    + target.substring("PROJ#".length()) + "';"
                                    + " f.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));",
                            onScreen(target) + " && document.querySelector(`#collection tbody tr[data-sort='" + target
                                    + "']`).classList.contains('selected')"));
                    rows.add(loaded(browser));
                    newestMs.add(
                            timed(browser, "document.getElementById('collection-newest').click();", onScreen(newest)));
                    rows.add(loaded(browser));
                    oldestMs.add(timed(
                            browser,
                            "document.getElementById('collection-oldest').click();",
                            onScreen("META")
                                    + " && document.getElementById('collection-scroll').dataset.base === '0'"));
                    rows.add(loaded(browser));
                }
                // The scrollbar dragged to the position: the page there loaded by its marks
                List<Double> dragged = new ArrayList<>();
                for (int round = 0; round < ROUNDS; round++) {
                    browser.executeScript("document.getElementById('collection-scroll').scrollTop = 0;");
                    waitFor(browser, onScreen("META"));
                    dragged.add(timed(
                            browser,
                            "document.getElementById('collection-scroll').scrollTop = " + (long) at * 22 + ";",
                            onScreen(target)));
                    rows.add(loaded(browser));
                }
                double heapEnd = heapMb(browser);
                String position = (String)
                        browser.executeScript("return document.getElementById('collection-position').textContent;");
                System.out.printf(
                        "machine: %d cores, java %s; load average %s%n"
                                + "collection of %,d items (tenant %s); the item at position %,d: %s%n"
                                + "first page, click to its first row: median %.0f ms (%s); long tasks: %s%n"
                                + "go to the id at %,d, Enter to its row selected on screen: median %.0f ms (%s)%n"
                                + "newest end, click to the newest project on screen: median %.0f ms (%s)%n"
                                + "oldest end, click to META on screen: median %.0f ms (%s)%n"
                                + "scrollbar to position %,d, scroll to its row on screen: median %.0f ms (%s)%n"
                                + "rows in the page's model after each step: %s (most %d)%n"
                                + "JS heap used (after a GC): %.1f MB before the first page, %.1f MB after it,"
                                + " %.1f MB after %d rounds of seeks and ends; last position shown: %s%n",
                        Runtime.getRuntime().availableProcessors(),
                        System.getProperty("java.version"),
                        loadAverage(),
                        sorts.size(),
                        tenant,
                        at,
                        target,
                        median(first),
                        rounded(first),
                        longTasks,
                        at,
                        median(found),
                        rounded(found),
                        median(newestMs),
                        rounded(newestMs),
                        median(oldestMs),
                        rounded(oldestMs),
                        at,
                        median(dragged),
                        rounded(dragged),
                        rows,
                        Collections.max(rows),
                        heapStart,
                        heapFirst,
                        heapEnd,
                        ROUNDS,
                        position);
            } finally {
                browser.quit();
            }
            // What each kind of page costs the server, as the endpoint reports it
            String view = "collection?tenant=" + tenant + "&limit=300";
            for (String start :
                    List.of("", "&find=" + target.substring("PROJ#".length()), "&at=" + at, "&end=newest")) {
                long t0 = System.nanoTime();
                java.net.http.HttpResponse<String> response =
                        api.send("GET", "/_console/api/" + view + start, null, List.of(), false);
                double ms = (System.nanoTime() - t0) / 1e6;
                Map<String, Object> body = dev.oneread.json.Json.readObject(response.body());
                System.out.printf(
                        "GET %s: %.0f ms, position %s, read %s%n",
                        view + start, ms, body.get("position"), body.get("read"));
            }
        }
        System.exit(0);
    }

    /**
     * The first page alone, as any console build can be measured (main's had no seek): click to the first row,
     * then the long tasks and the page's summary {@value #SETTLE_MS} ms after the click, and the heap then.
     */
    private static void firstOnly(ChromeDriver browser, String tenant, double heapStart) {
        List<Double> first = new ArrayList<>();
        List<String> after = new ArrayList<>();
        for (int round = 0; round < ROUNDS + 1; round++) {
            browser.executeScript("window.longTasks = [];");
            double ms = timed(
                    browser,
                    "document.querySelector(`#partitions .tenant-name[data-tenant='" + tenant + "']`).click();",
                    "document.getElementById('collection-title').dataset.view === '" + tenant + "'"
                            + " && document.querySelector('#collection tbody tr[data-sort=\"META\"]')");
            String settled = (String) browser.executeAsyncScript("const finish = arguments[arguments.length - 1];"
                    + " setTimeout(() => finish(window.longTasks.length + ' long tasks (longest '"
                    + " + Math.round(Math.max(0, ...window.longTasks)) + ' ms); summary: '"
                    + " + document.getElementById('collection-summary').textContent), " + SETTLE_MS + ");");
            if (round > 0) {
                first.add(ms);
                after.add(settled);
            }
        }
        System.out.printf(
                "load average %s%nfirst page, click to its first row: median %.0f ms (%s)%n"
                        + "%d ms after each click: %s%nJS heap used (after a GC): %.1f MB before, %.1f MB after%n",
                loadAverage(), median(first), rounded(first), SETTLE_MS, after, heapStart, heapMb(browser));
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** Runs {@code action} in the page, then waits a frame at a time until {@code done}; the ms between. */
    private static double timed(ChromeDriver browser, String action, String done) {
        Object ms = browser.executeAsyncScript(
                "const finish = arguments[arguments.length - 1]; const t0 = performance.now(); " + action
                        + " const check = () => (" + done + ") ? finish(performance.now() - t0)"
                        + " : requestAnimationFrame(check); check();");
        return ((Number) ms).doubleValue();
    }

    private static void waitFor(ChromeDriver browser, String condition) {
        browser.executeAsyncScript("const finish = arguments[arguments.length - 1];" + " const check = () => ("
                + condition + ") ? finish(true) : setTimeout(check, 100); check();");
    }

    private static String onScreen(String sort) {
        return "(() => { const s = document.getElementById('collection-scroll');"
                + " const tr = s.querySelector(`tbody tr[data-sort='" + sort + "']`);"
                + " if (!tr) return false; const r = tr.getBoundingClientRect(), b = s.getBoundingClientRect();"
                + " return r.top >= b.top && r.bottom <= b.bottom; })()";
    }

    private static long loaded(ChromeDriver browser) {
        return Long.parseLong((String)
                browser.executeScript("return document.getElementById('collection-scroll').dataset.loaded ?? '-1';"));
    }

    /** The page's JS heap in use after a collection, in MB (CDP Performance.getMetrics JSHeapUsedSize). */
    @SuppressWarnings("unchecked")
    private static double heapMb(ChromeDriver browser) {
        browser.executeCdpCommand("HeapProfiler.collectGarbage", Map.of());
        Map<String, Object> metrics = browser.executeCdpCommand("Performance.getMetrics", Map.of());
        for (Map<String, Object> metric : (List<Map<String, Object>>) metrics.get("metrics")) {
            if ("JSHeapUsedSize".equals(metric.get("name"))) {
                return ((Number) metric.get("value")).doubleValue() / (1024 * 1024);
            }
        }
        throw new IllegalStateException("no JSHeapUsedSize in Performance.getMetrics");
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    private static List<Long> rounded(List<Double> values) {
        return values.stream().map(Math::round).toList();
    }
}
