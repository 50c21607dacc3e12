package dev.oneread.bench;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.Ulid;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.CreationToken;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.operations.CreateProjectOperation;
import dev.oneread.operations.CreateWorkspaceOperation;
import dev.oneread.operations.OperationContext;
import dev.oneread.tests.support.BulkLoad;
import dev.oneread.tests.support.Chromium;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * On-demand benchmark (not a test): the console at scale, in Debian's chromium. 10,016 projects across 50
 * workspaces (one of 1,000, 49 of 184) in a table of their own; then, each as a median in the browser's own
 * clock: the partition list from page load to all 50 tenants rendered, a 1,000-item collection from click to
 * all rows rendered, and 20 API writes from the POST to the new row in the open collection.
 *
 * <p>Run: {@code bash bench/console.sh}.
 */
public final class ConsoleBenchmark {
    private static final int WORKSPACES = 50;
    private static final int LARGE = 1_000;
    private static final int OTHERS = 184;
    private static final int ROUNDS = 5;
    private static final int WRITES = 20;

    public static void main(String[] args) throws Exception {
        TestEngine engine = TestEngine.get();
        String table = "console-bench-" + UUID.randomUUID().toString().substring(0, 8);
        try (LocalApi api = LocalApi.start(engine, table, Map.of())) {
            List<String> workspaces = new ArrayList<>();
            long loadStart = System.nanoTime();
            int projects = load(api, table, workspaces);
            System.out.printf(
                    "machine: %d cores, java %s; %d projects in %d workspaces loaded in %.1f s (BatchWriteItem)%n",
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"),
                    projects,
                    WORKSPACES,
                    (System.nanoTime() - loadStart) / 1e9);
            api.send("POST", "/_console/api/rescan", null, List.of(), false, "Content-Type", "application/json");
            ChromeDriver browser = Chromium.start();
            try {
                WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
                List<Double> partitionList = new ArrayList<>();
                for (int round = 0; round < ROUNDS + 1; round++) {
                    browser.get(api.uri("/_console").toString());
                    Object ms = browser.executeAsyncScript("""
                            const done = arguments[arguments.length - 1];
                            const check = () => document.querySelectorAll('#partitions li.tenant').length >= arguments[0]
                                ? done(performance.now()) : requestAnimationFrame(check);
                            check();
                            """, WORKSPACES);
                    if (round > 0) {
                        partitionList.add(((Number) ms).doubleValue());
                    }
                }
                wait.until(d -> d.findElement(By.id("status")).getText().equals("live"));
                String large = workspaces.get(0);
                String small = workspaces.get(1);
                List<Double> collection = new ArrayList<>();
                for (int round = 0; round < ROUNDS + 1; round++) {
                    open(browser, wait, small, OTHERS + 1);
                    Object ms = browser.executeAsyncScript("""
                            const [tenant, rows, done] = arguments;
                            const t0 = performance.now();
                            document.querySelector(`#partitions .tenant-name[data-tenant='${tenant}']`).click();
                            const check = () => document.querySelector('#collection-title').dataset.view === tenant
                                && document.querySelectorAll('#collection tbody tr').length === rows
                                ? done(performance.now() - t0) : requestAnimationFrame(check);
                            check();
                            """, large, LARGE + 1);
                    if (round > 0) {
                        collection.add(((Number) ms).doubleValue());
                    }
                }
                String token =
                        api.stack().authorizer().issue("bench", List.of(small, large), false, Duration.ofMinutes(30));
                List<Double> smallLive = live(browser, wait, small, OTHERS + 1, token);
                List<Double> largeLive = live(browser, wait, large, LARGE + 1, token);
                System.out.printf(
                        "partition list, page load to %d tenants rendered: median %.0f ms (%d loads: %s)%n",
                        WORKSPACES, median(partitionList), ROUNDS, rounded(partitionList));
                System.out.printf(
                        "collection of %d items, click to every row rendered: median %.0f ms (%d opens: %s)%n",
                        LARGE + 1, median(collection), ROUNDS, rounded(collection));
                System.out.printf(
                        "live update, POST sent to its row in the open %d-item collection: median %.0f ms, max %.0f ms"
                                + " (%d writes)%n",
                        OTHERS + 1, median(smallLive), Collections.max(smallLive), WRITES);
                System.out.printf(
                        "live update, POST sent to its row in the open %d-item collection: median %.0f ms, max %.0f ms"
                                + " (%d writes)%n",
                        LARGE + 1, median(largeLive), Collections.max(largeLive), WRITES);
            } finally {
                browser.quit();
            }
        }
    }

    /** Writes the workspaces and projects with BatchWriteItem, as the store's own requests would store them. */
    private static int load(LocalApi api, String table, List<String> workspaces) {
        OperationContext requests = OperationContext.of(table);
        Ulid ids = Ulid.generator();
        Instant now = Instant.now();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        int projects = 0;
        for (int w = 0; w < WORKSPACES; w++) {
            WorkspaceId ws = WorkspaceId.of(String.format(
                    "tenant-%02d-%s", w, UUID.randomUUID().toString().substring(0, 4)));
            workspaces.add(ws.value());
            items.add(CreateWorkspaceOperation.generateRequest(
                            requests, new Workspace(ws, "Tenant " + w, Map.of(), now, now, 1), CreationToken.random())
                    .item());
            int count = w == 0 ? LARGE : OTHERS;
            for (int p = 0; p < count; p++) {
                ProjectId id = ids.next();
                items.add(CreateProjectOperation.generateRequest(
                                requests,
                                new Project(
                                        id,
                                        ws,
                                        "project " + p,
                                        "a project of tenant " + w,
                                        ProjectStatus.ACTIVE,
                                        now,
                                        now,
                                        1),
                                CreationToken.random())
                        .item());
                projects++;
            }
        }
        BulkLoad.putAll(api.stack().client(), table, items);
        return projects;
    }

    private static void open(ChromeDriver browser, WebDriverWait wait, String tenant, int rows) {
        // Clicked in the page: the list re-renders when partitions change, so a found element can go stale.
        wait.until(d -> (Boolean) browser.executeScript(
                "const b = document.querySelector(`#partitions .tenant-name[data-tenant='${arguments[0]}']`);"
                        + " if (b) b.click(); return b != null;",
                tenant));
        wait.until(d -> tenant.equals(d.findElement(By.id("collection-title")).getAttribute("data-view"))
                && d.findElements(By.cssSelector("#collection tbody tr")).size() == rows);
    }

    /** POSTs from the page itself (same origin), then waits for the new row: both times in the page's clock. */
    private static List<Double> live(ChromeDriver browser, WebDriverWait wait, String tenant, int rows, String token) {
        open(browser, wait, tenant, rows);
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < WRITES; i++) {
            Object ms = browser.executeAsyncScript("""
                    const [tenant, token, done] = arguments;
                    const t0 = performance.now();
                    fetch(`/workspaces/${tenant}/projects`, {method: 'POST',
                        headers: {'authorization': `Bearer ${token}`, 'content-type': 'application/json'},
                        body: JSON.stringify({name: 'live write'})})
                      .then((r) => r.json())
                      .then((p) => {
                        const check = () => document.querySelector(`#collection tbody tr[data-sort='PROJ#${p.id}']`)
                            ? done(performance.now() - t0) : requestAnimationFrame(check);
                        check();
                      });
                    """, tenant, token);
            times.add(((Number) ms).doubleValue());
        }
        return times;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String rounded(List<Double> values) {
        return values.stream().map(v -> String.valueOf(Math.round(v))).toList().toString();
    }
}
