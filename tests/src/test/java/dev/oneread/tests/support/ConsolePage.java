package dev.oneread.tests.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A browser test's console: Chromium on a start-api's {@code /_console}, driven as a person does: the page opened
 * until its event stream is live, a collection opened by its tenant's name, the log read. Either on a start-api the
 * test runs ({@link #open(LocalApi)}: closing the page closes the browser only) or on one of its own
 * ({@link #start}: closing the page stops both).
 *
 * <pre>{@code
 * try (ConsolePage page = ConsolePage.start(engine, table, new Dimension(1280, 800))) {
 *     page.open();
 *     page.openTenant(ws);
 * }
 * }</pre>
 */
public final class ConsolePage implements AutoCloseable {
    /**
     * How long a browser test waits for the page to show what must come: a failsafe against a hang, never a budget
     * (at load average 10 a log entry took over 10 s to show), so the event decides, not the clock.
     */
    public static final Duration WAIT = Eventually.FAILSAFE;

    public final LocalApi api;
    public final ChromeDriver browser;
    private final WebDriverWait waiter;
    /** True when the page started the server: closing it stops the server too. */
    private final boolean ownsApi;

    private ConsolePage(LocalApi api, ChromeDriver browser, boolean ownsApi) {
        this.api = api;
        this.browser = browser;
        // The log keeps a short run of entries and the collection a window of rows, each drawn anew or dropped as
        // the page goes on: an element found a moment ago can be gone by the next look, so a wait looks again.
        this.waiter = new WebDriverWait(browser, WAIT);
        this.waiter.ignoring(StaleElementReferenceException.class);
        this.ownsApi = ownsApi;
    }

    /** A page over a browser a test already drives (its helpers only: closing it quits the browser). */
    public ConsolePage(ChromeDriver browser, WebDriverWait waiter) {
        this.api = null;
        this.browser = browser;
        this.waiter = waiter;
        this.ownsApi = false;
    }

    /** A browser on the console of {@code api}, once the page says it is live; the test keeps its server. */
    public static ConsolePage open(LocalApi api) throws Exception {
        ConsolePage page = new ConsolePage(api, Chromium.start(), false);
        try {
            page.open();
            return page;
        } catch (RuntimeException | Error e) {
            page.close();
            throw e;
        }
    }

    /** start-api on {@code table} with template parameter {@code overrides}, and a browser of {@code window}'s size. */
    public static ConsolePage start(TestEngine engine, String table, Dimension window, Map<String, String> overrides)
            throws Exception {
        LocalApi api = LocalApi.start(engine, table, overrides);
        try {
            ChromeDriver browser = Chromium.start();
            if (window != null) {
                browser.manage().window().setSize(window);
            }
            return new ConsolePage(api, browser, true);
        } catch (Exception | Error e) {
            api.close();
            throw e;
        }
    }

    /**
     * start-api on {@code table}, and a browser of Chromium's own window not yet on the console: the test fills the
     * table through {@link #api()}, then {@link #open()}s the page; closing the page stops both.
     */
    public static ConsolePage start(TestEngine engine, String table) throws Exception {
        return start(engine, table, null, Map.of());
    }

    /** start-api on {@code table}, and a browser of {@code window}'s size not yet on the console. */
    public static ConsolePage start(TestEngine engine, String table, Dimension window) throws Exception {
        return start(engine, table, window, Map.of());
    }

    public LocalApi api() {
        return api;
    }

    public ChromeDriver browser() {
        return browser;
    }

    public WebDriverWait waiter() {
        return waiter;
    }

    /** Loads the console and waits until it says "live". */
    public void open() {
        browser.get(api.uri("/_console").toString());
        waiter.until(d -> d.findElement(By.id("status")).getText().equals("live"));
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

    /** How many children went into an element, and came out of it, since {@link #watchChildren}. */
    public record ChildChanges(int added, int removed) {}

    /**
     * From here on, counts the children put into and taken out of the element {@code selector} finds (the collection's
     * table body, the log's list): what a live batch or a reload moved, which the page must keep to what changed.
     */
    public void watchChildren(String selector) {
        browser.executeScript(
                "window.childChanges = { added: 0, removed: 0 };"
                        + " new MutationObserver((changes) => changes.forEach((m) => {"
                        + " window.childChanges.added += m.addedNodes.length;"
                        + " window.childChanges.removed += m.removedNodes.length; }))"
                        + ".observe(document.querySelector(arguments[0]), { childList: true });",
                selector);
    }

    /** The children put in and taken out since {@link #watchChildren}. */
    public ChildChanges childChanges() {
        Map<?, ?> changes = (Map<?, ?>) browser.executeScript("return window.childChanges;");
        return new ChildChanges(
                ((Number) changes.get("added")).intValue(), ((Number) changes.get("removed")).intValue());
    }

    /** The rows of the open collection. */
    public List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#collection tbody tr"));
    }

    /** The newest entry of the log for {@code method} and {@code path}, once there is one. */
    public WebElement newestRequest(String method, String path) {
        return waiter.until(d -> d.findElements(By.cssSelector("#requests li.request")).stream()
                .filter(li -> li.findElement(By.cssSelector(".method"))
                                .getText()
                                .equals(method)
                        && li.findElement(By.cssSelector(".path")).getText().equals(path))
                .findFirst()
                .orElse(null));
    }

    /** A workspace made through the API by an operator, named as its id. */
    public static void createWorkspace(LocalApi api, String id) throws Exception {
        createWorkspace(api, id, id);
    }

    /** A workspace made through the API by an operator. */
    public static void createWorkspace(LocalApi api, String id, String name) throws Exception {
        HttpResponse<String> created =
                api.send("POST", "/workspaces", "{\"id\":\"" + id + "\",\"name\":\"" + name + "\"}", List.of(), true);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    }

    @Override
    public void close() {
        try {
            browser.quit();
        } finally {
            if (ownsApi) {
                api.close();
            }
        }
    }
}
