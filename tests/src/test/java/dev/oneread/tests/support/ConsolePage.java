package dev.oneread.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * start-api on a table of its own and its console in Chromium, at a window size, driven as a person does: the page
 * opened until its event stream is live, a collection opened by its tenant's name.
 *
 * <pre>{@code
 * try (ConsolePage page = ConsolePage.start(engine, table, new Dimension(1280, 800))) {
 *     page.open();
 *     page.openTenant(ws);
 * }
 * }</pre>
 */
public final class ConsolePage implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(10);

    public final LocalApi api;
    public final ChromeDriver browser;

    private ConsolePage(LocalApi api, ChromeDriver browser) {
        this.api = api;
        this.browser = browser;
    }

    /** start-api on {@code table}, and a browser of {@code window}'s size not yet on the console. */
    public static ConsolePage start(TestEngine engine, String table, Dimension window) throws Exception {
        LocalApi api = LocalApi.start(engine, table, Map.of());
        try {
            ChromeDriver browser = Chromium.start();
            browser.manage().window().setSize(window);
            return new ConsolePage(api, browser);
        } catch (Exception | Error e) {
            api.close();
            throw e;
        }
    }

    /** Loads the console and waits until it says "live". */
    public void open() {
        browser.get(api.uri("/_console").toString());
        new WebDriverWait(browser, WAIT)
                .until(d -> d.findElement(By.id("status")).getText().equals("live"));
    }

    public void openTenant(String tenant) {
        openTenant(browser, tenant);
    }

    /** Clicks the tenant in the list and waits until its collection is the one shown. */
    public static void openTenant(ChromeDriver browser, String tenant) {
        WebDriverWait wait = new WebDriverWait(browser, WAIT);
        // Clicked in the page: the list re-renders whenever partitions change, so a found element can go stale.
        wait.until(d -> (Boolean) browser.executeScript(
                "const b = document.querySelector(`#partitions .tenant-name[data-tenant='${arguments[0]}']`);"
                        + " if (b) b.click(); return b != null;",
                tenant));
        wait.until(d -> tenant.equals(d.findElement(By.id("collection-title")).getAttribute("data-view")));
    }

    /** A workspace made through the API by an operator. */
    public static void createWorkspace(LocalApi api, String id) throws Exception {
        HttpResponse<String> created =
                api.send("POST", "/workspaces", "{\"id\":\"" + id + "\",\"name\":\"" + id + "\"}", List.of(), true);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }

    @Override
    public void close() {
        try {
            browser.quit();
        } finally {
            api.close();
        }
    }
}
