package dev.oneread.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.operations.OperationContext;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console kept open on a large collection while a bulk load writes to it (issue 25, "It froze"): a 2,000-item
 * collection open in the page, then 2,000 creates from 4 clients through start-api. What the page did meanwhile is
 * counted in the page: its fetches, the events and rows it received, the {@code <tr>}s it created and the most it
 * held, its long tasks. {@code ConsoleLoadBrowserTest} asserts the work; {@code ConsoleLoadBenchmark} (bench/) times
 * it.
 *
 * <pre>{@code
 * try (ConsoleLoad load = ConsoleLoad.start(TestEngine.get())) {
 *     List<ConsoleLoad.Created> created = load.load();
 *     load.awaitAllCounted();
 *     ConsoleLoad.Figures figures = load.figures();
 * }
 * }</pre>
 */
public final class ConsoleLoad implements AutoCloseable {
    public static final int EXISTING = 2_000;
    public static final int CREATES = 2_000;
    public static final int CLIENTS = 4;
    /** collection.js's ROW (a row's height in px) and MARGIN (rows rendered above and below the visible ones). */
    private static final int ROW = 22;

    private static final int MARGIN = 100;
    /** How often the find box is asked: the moment the row shows is the figure the benchmark measures. */
    private static final Duration FIND_POLL = Duration.ofMillis(20);

    /**
     * Counts the bytes of every server-sent event the page receives, as they came on the wire ({@code event:} and
     * {@code data:} lines): an EventSource reports no transfer size of its own; and the rows the {@code changed}
     * events carry. Installed before the page's script.
     */
    private static final String COUNT_EVENTS = "window.sseBytes = 0; window.sseEvents = 0; window.sseRows = 0;"
            + " const Native = window.EventSource;"
            + " window.EventSource = class extends Native { constructor(url, init) { super(url, init);"
            + " for (const type of ['request', 'changed', 'heat', 'reloaded', 'cleared']) {"
            + " this.addEventListener(type, (e) => { window.sseEvents += 1;"
            + " if (type === 'changed') window.sseRows += (JSON.parse(e.data).items ?? []).length;"
            + " const frame = `event: ${type}\\ndata: ${e.data}\\n\\n`;"
            + " window.sseBytes += new TextEncoder().encode(frame).length; }); } } };";

    /**
     * From here on: every long task (50 ms or more, as the browser reports them), the longest animation frames (where
     * the time went), fetches and events counted afresh, and the collection's rows in the DOM: the most it held at
     * once and how many {@code <tr>}s were created (a row already shown and not changed is never rendered again).
     */
    private static final String OBSERVE = "window.longTasks = [];"
            + " new PerformanceObserver((list) => {"
            + " for (const e of list.getEntries()) window.longTasks.push(e.duration); })"
            + ".observe({ type: 'longtask' });"
            + " window.longFrames = []; new PerformanceObserver((list) => {"
            + " for (const f of list.getEntries()) if (f.duration > 150) window.longFrames.push({"
            + " duration: Math.round(f.duration), blocking: Math.round(f.blockingDuration),"
            + " render: Math.round(f.renderStart ? f.startTime + f.duration - f.renderStart : 0),"
            + " styleAndLayout: Math.round(f.styleAndLayoutStart"
            + " ? f.startTime + f.duration - f.styleAndLayoutStart : 0),"
            + " scripts: f.scripts.map((x) => `${x.invoker} ${x.sourceFunctionName} ${Math.round(x.duration)} ms`) }); })"
            + ".observe({ type: 'long-animation-frame' });"
            + " performance.setResourceTimingBufferSize(100000); performance.clearResourceTimings();"
            + " window.sseBytes = 0; window.sseEvents = 0; window.sseRows = 0;"
            + " const rows = () => document.querySelectorAll('#collection tbody tr');"
            + " const seen = new WeakSet(rows()); window.rowsCreated = 0; window.mostRows = rows().length;"
            + " new MutationObserver(() => { const now = rows(); window.mostRows = Math.max(window.mostRows, now.length);"
            + " for (const tr of now) if (!seen.has(tr)) { seen.add(tr); window.rowsCreated += 1; } })"
            + ".observe(document.getElementById('collection'), { childList: true, subtree: true });";

    private static final String FIGURES = "const r = performance.getEntriesByType('resource')"
            + ".filter((e) => e.name.includes('/_console/'));"
            + " const sum = (k) => r.reduce((a, e) => a + e[k], 0);"
            + " return { fetches: r.length,"
            + " collectionFetches: r.filter((e) => e.name.includes('/collection?')).length,"
            + " transfer: sum('transferSize'), body: sum('encodedBodySize'), sseBytes: window.sseBytes,"
            + " sseEvents: window.sseEvents, sseRows: window.sseRows, rowsCreated: window.rowsCreated,"
            + " mostRows: window.mostRows,"
            + " windowRows: Math.ceil(document.getElementById('collection-scroll').clientHeight / arguments[0])"
            + " + 1 + 2 * arguments[1],"
            + " longTasks: window.longTasks.length, longest: Math.max(0, ...window.longTasks) };";

    public final ConsolePage page;
    public final ChromeDriver browser;
    public final String ws = Api.freshWorkspaceId("load");

    /**
     * One create's answer: its project id and when its response came, on the client's monotonic clock and on the
     * wall clock the page shares (same machine), to compare with the page's own times.
     */
    public record Created(String id, long atNanos, long atEpochMillis) {}

    /**
     * The user's clicks, timed in the page: from a row's click (the event's own time stamp, so the wait for the main
     * thread counts) to the frame after the side panel shows that row's item, each in {@code window.panelOpens}.
     */
    private static final String TIME_PANEL_OPENS = "window.panelOpens = []; let clicked = null;"
            + " document.addEventListener('click', (e) => { const tr = e.target.closest('#collection tbody tr');"
            + " if (tr) clicked = { sort: tr.dataset.sort, at: e.timeStamp }; }, true);"
            + " const panel = document.getElementById('item-panel');"
            + " new MutationObserver(() => { if (!clicked || panel.hidden"
            + " || !panel.textContent.includes(clicked.sort)) return; const c = clicked; clicked = null;"
            + " requestAnimationFrame(() => setTimeout(() => window.panelOpens.push(performance.now() - c.at), 0)); })"
            + ".observe(panel, { childList: true, subtree: true, attributes: true, characterData: true });";

    /**
     * When each created row reached the page's collection: the console marks each batch of changes it applies
     * (an {@code oneread:rows-applied} event, its sort keys in the detail); the wall-clock time of the first, per sort
     * key.
     */
    private static final String RECORD_ROWS_APPLIED = "window.rowsApplied = {};"
            + " document.addEventListener('oneread:rows-applied', (e) => { const at = Date.now();"
            + " for (const sort of e.detail.sorts) if (!(sort in window.rowsApplied)) window.rowsApplied[sort] = at; });";

    /**
     * What the page did since {@link #start}: its fetches ({@code collectionFetches} of the collection) and bytes,
     * the server-sent events and the rows the {@code changed} ones carried, the collection's {@code <tr>}s created
     * and the most the DOM held at once against the window's size (the rows on screen and a margin), its long tasks.
     */
    public record Figures(
            long fetches,
            long collectionFetches,
            long transfer,
            long body,
            long sseEvents,
            long sseBytes,
            long sseRows,
            long rowsCreated,
            long mostRows,
            long windowRows,
            long longTasks,
            double longest) {
        static Figures of(Map<?, ?> m) {
            return new Figures(
                    number(m, "fetches"),
                    number(m, "collectionFetches"),
                    number(m, "transfer"),
                    number(m, "body"),
                    number(m, "sseEvents"),
                    number(m, "sseBytes"),
                    number(m, "sseRows"),
                    number(m, "rowsCreated"),
                    number(m, "mostRows"),
                    number(m, "windowRows"),
                    number(m, "longTasks"),
                    ((Number) m.get("longest")).doubleValue());
        }

        private static long number(Map<?, ?> m, String name) {
            return ((Number) m.get(name)).longValue();
        }

        @Override
        public String toString() {
            return String.format(
                    "page fetched %d requests (%d of the collection), %d bytes transferred (%d body); %d server-sent"
                            + " events, %d bytes, carrying %d rows; %d rows rendered, at most %d in the DOM (window"
                            + " %d); %d long tasks, the longest %.0f ms",
                    fetches,
                    collectionFetches,
                    transfer,
                    body,
                    sseEvents,
                    sseBytes,
                    sseRows,
                    rowsCreated,
                    mostRows,
                    windowRows,
                    longTasks,
                    longest);
        }
    }

    private ConsoleLoad(ConsolePage page) {
        this.page = page;
        this.browser = page.browser;
    }

    /**
     * start-api on a fresh table holding a workspace of {@value #EXISTING} projects, and a 1280x800 browser with
     * that collection open, every row in the page's model, observed from here on.
     */
    public static ConsoleLoad start(TestEngine engine) throws Exception {
        String table = "console-load-" + UUID.randomUUID().toString().substring(0, 8);
        ConsoleLoad load = new ConsoleLoad(ConsolePage.start(engine, table, new Dimension(1280, 800)));
        try {
            load.open(engine, table);
            return load;
        } catch (Exception | Error e) {
            load.close();
            throw e;
        }
    }

    private void open(TestEngine engine, String table) throws Exception {
        ConsolePage.createWorkspace(page.api, ws);
        // written as the store writes them (25 to a BatchWriteItem, for speed)
        BulkLoad.putAll(
                engine.client,
                table,
                BulkLoad.projects(
                        OperationContext.of(table, ShardPlan.none()), WorkspaceId.of(ws), EXISTING, Instant.now()));
        assertThat(page.api
                        .send("POST", "/_console/api/rescan", null, List.of(), false)
                        .statusCode())
                .isEqualTo(200);
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", COUNT_EVENTS));
        page.open();
        page.openTenant(ws);
        awaitCount(1 + EXISTING);
        browser.executeScript(OBSERVE);
    }

    /** {@value #CREATES} creates, {@value #CLIENTS} clients sharing them, released together; every one answered 201. */
    public List<Created> load() throws Exception {
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
                        long atMillis = System.currentTimeMillis();
                        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
                        mine.add(new Created(
                                (String) Json.readObject(response.body()).get("id"), at, atMillis));
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

    /** Waits until the page counts every item: the workspace, those there before and those created. */
    public void awaitAllCounted() {
        awaitCount(1 + EXISTING + CREATES);
    }

    private void awaitCount(int items) {
        new WebDriverWait(browser, Eventually.FAILSAFE).until(d -> summary().equals(items + " items in 1 partition"));
    }

    /** What the page did since it was observed. */
    public Figures figures() {
        return Figures.of((Map<?, ?>) browser.executeScript(FIGURES, ROW, MARGIN));
    }

    /** Times the side panel's opens from here on (see {@link #panelOpens}), and when each row is applied. */
    public void timePanelOpens() {
        browser.executeScript(TIME_PANEL_OPENS + RECORD_ROWS_APPLIED);
    }

    /** The opens timed since {@link #timePanelOpens}, in ms: a click on a row to the frame after its panel. */
    public List<Double> panelOpens() {
        return ((List<?>) browser.executeScript("return window.panelOpens;"))
                .stream().map(n -> ((Number) n).doubleValue()).toList();
    }

    /**
     * Clicks the {@code n}th row on screen, as a user does (a real click through the browser's input): true when a
     * row was there to click, false when the rows were replaced under the pointer.
     */
    public boolean clickRow(int n) {
        List<WebElement> rows = browser.findElements(By.cssSelector("#collection tbody tr[data-sort]"));
        if (rows.isEmpty()) {
            return false;
        }
        try {
            rows.get(n % rows.size()).click();
            return true;
        } catch (StaleElementReferenceException | ElementClickInterceptedException e) {
            return false;
        }
    }

    /**
     * Per created row, the ms from its create's response to the console applying its row (the page's
     * {@code oneread:rows-applied} events); a row never marked is left out and counted by the caller.
     */
    public Map<String, Double> rowDelays(List<Created> created) {
        Map<?, ?> applied = (Map<?, ?>) browser.executeScript("return window.rowsApplied;");
        Map<String, Double> delays = new HashMap<>();
        for (Created c : created) {
            Object at = applied.get("PROJ#" + c.id());
            if (at != null) {
                delays.put(c.id(), ((Number) at).doubleValue() - c.atEpochMillis());
            }
        }
        return delays;
    }

    /** The five longest animation frames and the scripts that ran in them: where the time went. */
    public String longestFrames() {
        return (String) browser.executeScript(
                "return JSON.stringify(window.longFrames.sort((a, b) => b.duration - a.duration).slice(0, 5));");
    }

    /**
     * Asks the page's "go to" box for the project until its row is selected on screen (a failsafe against a hang, not
     * a budget); when it was.
     */
    public long findRow(String id) throws InterruptedException {
        long[] shownAt = {0};
        Eventually.await(
                () -> {
                    Boolean shown = (Boolean) browser.executeScript(
                            // Enter, which seeks at once (typing seeks once it pauses: an input event at each
                            // poll would put the seek off each time)
                            "const find = document.getElementById('collection-find'); find.value = arguments[0];"
                                    + " find.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));"
                                    + " const tr = document.querySelector("
                                    + "`#collection tbody tr[data-sort='PROJ#${arguments[0]}']`);"
                                    + " return tr != null && tr.classList.contains('selected');",
                            id);
                    if (Boolean.TRUE.equals(shown)) {
                        shownAt[0] = System.nanoTime();
                    }
                    return shownAt[0] != 0;
                },
                Eventually.FAILSAFE,
                FIND_POLL);
        return shownAt[0];
    }

    private String summary() {
        return (String) browser.executeScript("return document.getElementById('collection-summary').textContent;");
    }

    @Override
    public void close() {
        page.close();
    }
}
