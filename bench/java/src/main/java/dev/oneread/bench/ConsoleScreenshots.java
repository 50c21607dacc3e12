package dev.oneread.bench;

import dev.oneread.json.Json;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's pictures for the docs, at 1280x800 (a laptop's browser window): the collection, an item's side
 * panel, the request log with a diff, a query on the index, and the heat view. Data made through the API on a
 * table of its own: a workspace of 40 projects (one of them edited, one created with an Idempotency-Key) and a
 * 10-shard hot tenant of 100.
 *
 * <pre>{@code bash bench/java-main.sh ConsoleScreenshots docs/images}</pre>
 */
public final class ConsoleScreenshots {
    private static final Dimension WINDOW = new Dimension(1280, 800);

    private ConsoleScreenshots() {}

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "docs/images").toAbsolutePath();
        Files.createDirectories(out);
        String table = "screens-" + UUID.randomUUID().toString().substring(0, 8);
        String ws = "acme";
        String hot = "globex";
        try (ConsolePage page =
                ConsolePage.start(TestEngine.get(), table, WINDOW, Map.of("HotTenantShards", hot + "=10"))) {
            LocalApi api = page.api();
            List<String> projects = load(api, ws, hot);
            page.open();
            ChromeDriver browser = page.browser();
            WebDriverWait wait = page.waiter();
            // The collection, with the edited project's request selected in the log: its diff beside the rows
            click(browser, wait, "#partitions .tenant-name[data-tenant='" + ws + "']");
            wait.until(d -> ws.equals(d.findElement(By.id("collection-title")).getAttribute("data-view")));
            wait.until(
                    d -> !d.findElements(By.cssSelector("#collection tbody tr")).isEmpty());
            shot(browser, out, "console-collection");
            // The log with a diff: the PATCH's request opened
            click(
                    browser,
                    wait,
                    "#requests li.request[data-route='PATCH /workspaces/{workspaceId}/projects/{projectId}']");
            wait.until(d ->
                    !d.findElements(By.cssSelector("#request-detail .diff")).isEmpty());
            browser.executeScript("document.querySelector('#request-detail .diff').scrollIntoView({block: 'center'})");
            shot(browser, out, "console-log-diff");
            // An item's side panel: the edited project
            click(browser, wait, "#collection tbody tr[data-sort='PROJ#" + projects.get(0) + "']");
            wait.until(d -> d.findElement(By.id("item-panel")).isDisplayed());
            shot(browser, out, "console-item-panel");
            // A query on the index: an index partition opened from the left pane, the item panel closed
            browser.findElement(By.id("item-close")).click();
            click(browser, wait, "#index-partitions button");
            wait.until(
                    d -> !d.findElements(By.cssSelector("#read-items tbody tr")).isEmpty());
            browser.executeScript("document.querySelector('#read-form').scrollIntoView()");
            shot(browser, out, "console-index-query");
            // The heat view, while the hot tenant takes a burst of writes
            for (int i = 0; i < 60; i++) {
                create(api, hot, "burst " + i, null);
            }
            browser.findElement(By.id("tab-heat")).click();
            wait.until(d -> !d.findElements(By.cssSelector("#heat-accessed li.heat-group"))
                    .isEmpty());
            shot(browser, out, "console-heat-view");
        }
    }

    private static List<String> load(LocalApi api, String ws, String hot) throws Exception {
        for (String workspace : List.of(ws, hot)) {
            HttpResponse<String> created = api.send(
                    "POST",
                    "/workspaces",
                    "{\"id\":\"" + workspace + "\",\"name\":\"" + workspace + "\"}",
                    List.of(),
                    true);
            require(created, 201);
        }
        List<String> projects = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            projects.add(create(api, ws, "project " + i, i == 39 ? "screens-" + UUID.randomUUID() : null));
        }
        for (int i = 0; i < 100; i++) {
            create(api, hot, "hot " + i, null);
        }
        HttpResponse<String> edited = api.send(
                "PATCH",
                "/workspaces/" + ws + "/projects/" + projects.get(0),
                "{\"name\":\"renamed\"}",
                List.of(ws),
                false,
                "If-Match",
                "\"1\"");
        require(edited, 200);
        return projects;
    }

    private static String create(LocalApi api, String workspace, String name, String idempotencyKey) throws Exception {
        List<String> headers = idempotencyKey == null ? List.of() : List.of("Idempotency-Key", idempotencyKey);
        HttpResponse<String> response = api.send(
                "POST",
                "/workspaces/" + workspace + "/projects",
                "{\"name\":\"" + name + "\"}",
                List.of(workspace),
                false,
                headers.toArray(String[]::new));
        require(response, 201);
        return (String) Json.readObject(response.body()).get("id");
    }

    private static void require(HttpResponse<String> response, int status) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(response.statusCode() + " " + response.body());
        }
    }

    private static void click(ChromeDriver browser, WebDriverWait wait, String selector) {
        // In the page: lists re-render on each change, so a found element can go stale before a click
        wait.until(d -> (Boolean) browser.executeScript(
                "const e = document.querySelector(arguments[0]); if (e) { e.scrollIntoView({block: 'center'});"
                        + " e.click(); } return e != null;",
                selector));
    }

    private static void shot(ChromeDriver browser, Path out, String name) throws Exception {
        Path file = out.resolve(name + ".png");
        Files.write(file, browser.getScreenshotAs(OutputType.BYTES));
        System.out.println(file);
    }
}
