package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.store.ControlPlaneRequests;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.BulkLoad;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console kept open on a large collection while a bulk load writes to it (issue 25, "It froze"): a 2,000-item
 * collection, then 2,000 creates from 4 clients through start-api. The page must stay responsive (no task on its
 * main thread over 200 ms, measured in the page by a {@code longtask} observer) and show the last row created
 * within 2 s of its response. What the page fetched and received meanwhile is printed, for the record.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleLoadBrowserTest {
    private static final int EXISTING = 2_000;
    private static final int CREATES = 2_000;
    private static final int CLIENTS = 4;
    private static final double LONGEST_TASK_MS = 200;
    private static final Duration SHOWN_WITHIN = Duration.ofSeconds(2);

    /**
     * Counts the bytes of every server-sent event the page receives, as they came on the wire ({@code event:} and
     * {@code data:} lines): an EventSource reports no transfer size of its own. Installed before the page's script.
     */
    private static final String COUNT_EVENT_BYTES = "window.sseBytes = 0; window.sseEvents = 0;"
            + " const Native = window.EventSource;"
            + " window.EventSource = class extends Native { constructor(url, init) { super(url, init);"
            + " for (const type of ['request', 'changed', 'heat', 'reloaded', 'cleared']) {"
            + " this.addEventListener(type, (e) => { window.sseEvents += 1;"
            + " const frame = `event: ${type}\\ndata: ${e.data}\\n\\n`;"
            + " window.sseBytes += new TextEncoder().encode(frame).length; }); } } };";

    /** Every long task from here on (50 ms or more, as the browser reports them); fetches and events counted afresh. */
    private static final String OBSERVE = "window.longTasks = [];"
            + " new PerformanceObserver((list) => {"
            + " for (const e of list.getEntries()) window.longTasks.push(e.duration); })"
            + ".observe({ type: 'longtask' });"
            // and what ran in the longest animation frames, to say where the time went when the bound is broken
            + " window.longFrames = []; new PerformanceObserver((list) => {"
            + " for (const f of list.getEntries()) if (f.duration > 150) window.longFrames.push({"
            + " duration: Math.round(f.duration), blocking: Math.round(f.blockingDuration),"
            + " scripts: f.scripts.map((x) => `${x.invoker} ${x.sourceFunctionName} ${Math.round(x.duration)} ms`) }); })"
            + ".observe({ type: 'long-animation-frame' });"
            + " performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings();"
            + " window.sseBytes = 0; window.sseEvents = 0;";

    private final TestEngine engine = TestEngine.get();
    private final String table = "console-load-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("load");
    private ConsolePage page;
    private ChromeDriver browser;

    /** One create's answer: its project id and when its response came. */
    private record Created(String id, long atNanos) {}

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table, new Dimension(1280, 800));
        browser = page.browser;
        ConsolePage.createWorkspace(page.api, ws);
        // GIVEN 2,000 projects, written as the store writes them (25 to a BatchWriteItem, for speed)
        BulkLoad.putAll(
                engine.client,
                table,
                BulkLoad.projects(
                        new ControlPlaneRequests(table, ShardPlan.none()),
                        WorkspaceId.of(ws),
                        EXISTING,
                        Instant.now()));
        assertThat(page.api
                        .send("POST", "/_console/api/rescan", null, List.of(), false)
                        .statusCode())
                .isEqualTo(200);
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", COUNT_EVENT_BYTES));
        page.open();
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void bulkLoadIntoTheOpenCollection_shouldNeverBlockThePageOver200ms_andShowTheLastRowWithin2s() throws Exception {
        // GIVEN the 2,001-item collection open (its workspace and 2,000 projects), every row in the page's model
        page.openTenant(ws);
        new WebDriverWait(browser, Eventually.FAILSAFE).until(d -> summary().equals("2001 items in 1 partition"));
        browser.executeScript(OBSERVE);
        // WHEN 4 clients create 2,000 projects in it, all at once
        List<Created> created = load();
        Created last =
                created.stream().max(Comparator.comparingLong(Created::atNanos)).orElseThrow();
        // THEN the last one created is in the page's model, found and shown, within 2 s of its response
        long foundAt = findRow(last.id(), last.atNanos() + SHOWN_WITHIN.toNanos());
        double shownAfterMs = (foundAt - last.atNanos()) / 1e6;
        // AND the row count says how many there are now
        new WebDriverWait(browser, Eventually.FAILSAFE)
                .until(d -> summary().equals((1 + EXISTING + CREATES) + " items in 1 partition"));
        Map<?, ?> figures = (Map<?, ?>) browser.executeScript("const r = performance.getEntriesByType('resource')"
                + ".filter((e) => e.name.includes('/_console/'));"
                + " const sum = (k) => r.reduce((a, e) => a + e[k], 0);"
                + " return { fetches: r.length,"
                + " collectionFetches: r.filter((e) => e.name.includes('/collection?')).length,"
                + " transfer: sum('transferSize'), body: sum('encodedBodySize'), sseBytes: window.sseBytes,"
                + " sseEvents: window.sseEvents, longTasks: window.longTasks.length,"
                + " longest: Math.max(0, ...window.longTasks) };");
        System.out.printf(
                "console under load: %d creates from %d clients into a %d-item collection; last row shown %.0f ms after"
                        + " its response; page fetched %s requests (%s of the collection), %s bytes transferred (%s"
                        + " body); %s server-sent events, %s bytes; %s long tasks, the longest %s ms%n",
                CREATES,
                CLIENTS,
                1 + EXISTING,
                shownAfterMs,
                figures.get("fetches"),
                figures.get("collectionFetches"),
                figures.get("transfer"),
                figures.get("body"),
                figures.get("sseEvents"),
                figures.get("sseBytes"),
                figures.get("longTasks"),
                figures.get("longest"));
        System.out.println("the longest frames: "
                + browser.executeScript("return JSON.stringify(window.longFrames"
                        + ".sort((a, b) => b.duration - a.duration).slice(0, 5));"));
        assertThat(shownAfterMs).isLessThanOrEqualTo(SHOWN_WITHIN.toMillis());
        // AND no task blocked the page's main thread for more than 200 ms
        assertThat(((Number) figures.get("longest")).doubleValue()).isLessThanOrEqualTo(LONGEST_TASK_MS);
        // AND the collection was not fetched again per write (one fetch at most, should the stream have reconnected)
        assertThat(((Number) figures.get("collectionFetches")).longValue()).isLessThanOrEqualTo(1);
    }

    /** 2,000 creates, 500 by each of 4 clients, released together; every one answered 201. */
    private List<Created> load() throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<List<Created>>> futures = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                futures.add(clients.submit(() -> {
                    go.await();
                    List<Created> mine = new ArrayList<>();
                    for (int i = 0; i < CREATES / CLIENTS; i++) {
                        HttpResponse<String> response = page.api.send(
                                "POST",
                                "/workspaces/" + ws + "/projects",
                                "{\"name\":\"load " + client + "-" + i + "\"}",
                                List.of(ws),
                                false);
                        long at = System.nanoTime();
                        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
                        mine.add(new Created(
                                (String) Json.readObject(response.body()).get("id"), at));
                    }
                    return mine;
                }));
            }
            go.countDown();
            List<Created> all = new ArrayList<>();
            for (Future<List<Created>> future : futures) {
                all.addAll(future.get());
            }
            return all;
        } finally {
            clients.shutdownNow();
        }
    }

    /** Asks the page's "go to" box for the project until its row is selected on screen; when it was, or fails. */
    private long findRow(String id, long deadlineNanos) throws InterruptedException {
        long[] shownAt = {0};
        // Asked every 20 ms, not every Eventually.POLL: the moment the row shows is the figure this test measures.
        Eventually.await(
                () -> {
                    Boolean shown = (Boolean) browser.executeScript(
                            "const find = document.getElementById('collection-find'); find.value = arguments[0];"
                                    + " find.dispatchEvent(new Event('input'));"
                                    + " const tr = document.querySelector("
                                    + "`#collection tbody tr[data-sort='PROJ#${arguments[0]}']`);"
                                    + " return tr != null && tr.classList.contains('selected');",
                            id);
                    if (Boolean.TRUE.equals(shown)) {
                        shownAt[0] = System.nanoTime();
                    }
                    return shownAt[0] != 0;
                },
                Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())),
                Duration.ofMillis(20));
        return shownAt[0] != 0 ? shownAt[0] : System.nanoTime();
    }

    private String summary() {
        return (String) browser.executeScript("return document.getElementById('collection-summary').textContent;");
    }
}
