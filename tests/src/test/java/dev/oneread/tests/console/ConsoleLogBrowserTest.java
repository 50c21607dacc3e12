package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The request log under a bulk load (issue 40, "under load, smooth"): while its top is in view the list holds a
 * short run of the newest entries, so that a live batch styles and lays out a short list; scrolling toward its end
 * lists more, up to the 500 it always offered, and the keyboard walks on past the run; back at the top it is short
 * again, and a request arriving there puts one entry in and takes one out, the others left in place.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
class ConsoleLogBrowserTest {
    /** requests.js's LOG_FIRST (entries listed while the top is in view) and LOG_STEP (added near the end). */
    private static final int FIRST = 100;

    private static final int STEP = 100;
    /** Requests sent: more than two steps past the first run. */
    private static final int REQUESTS = 260;

    private final TestEngine engine = TestEngine.get();
    private final String table = "console-log-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("log");
    private ConsolePage page;
    private LocalApi api;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table, new Dimension(1280, 800));
        api = page.api;
        browser = page.browser;
        wait = new WebDriverWait(browser, Eventually.FAILSAFE);
        page.open();
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void log_shouldListAShortRunAtItsTop_andMoreAsItIsScrolledOrWalked() throws Exception {
        // GIVEN a log of 260 requests and more, the newest a marker the page waits for
        ConsolePage.createWorkspace(api, ws);
        for (int i = 0; i < REQUESTS; i++) {
            api.send("GET", "/workspaces/" + ws, null, List.of(ws), false);
        }
        String marker = Api.freshWorkspaceId("marker");
        api.send("GET", "/workspaces/" + marker, null, List.of(marker), false);
        List<Map<String, Object>> server = serverLog();
        wait.until(d -> marker.equals(entryAttribute(0, "data-workspace")));
        // THEN at its top the list holds the newest 100, newest first, as the server's log has them
        assertThat(listed()).as("entries listed at the top").isEqualTo(FIRST);
        assertThat(entryAttribute(FIRST - 1, "data-id"))
                .isEqualTo(String.valueOf(server.get(FIRST - 1).get("id")));
        // WHEN the pane is scrolled to the end of the list, twice
        scrollLogTo("pane.scrollHeight");
        wait.until(d -> listed() == FIRST + STEP);
        scrollLogTo("pane.scrollHeight");
        // THEN each time it lists 100 more, and the oldest listed is the server's entry at that place
        int all = Math.min(500, server.size());
        wait.until(d -> listed() == Math.min(all, FIRST + 2 * STEP));
        assertThat(entryAttribute(listed() - 1, "data-id"))
                .isEqualTo(String.valueOf(server.get(listed() - 1).get("id")));
        // WHEN it is scrolled back to its top
        scrollLogTo("0");
        // THEN it is a short run again
        wait.until(d -> listed() == FIRST);
        // WHEN the keyboard goes to the last entry listed, and on with ArrowDown once the list has grown
        WebElement last = entry(FIRST - 1);
        browser.executeScript("arguments[0].focus()", last);
        wait.until(d -> listed() == FIRST + STEP);
        browser.switchTo().activeElement().sendKeys(Keys.ARROW_DOWN);
        // THEN the focus is on the next older request, the first of those the list added
        assertThat(browser.switchTo().activeElement().getAttribute("data-id"))
                .isEqualTo(String.valueOf(server.get(FIRST).get("id")));
        // WHEN, back at the top, one more request arrives
        scrollLogTo("0");
        wait.until(d -> listed() == FIRST);
        page.watchChildren("#requests");
        String second = Api.freshWorkspaceId("marker");
        api.send("GET", "/workspaces/" + second, null, List.of(second), false);
        wait.until(d -> second.equals(entryAttribute(0, "data-workspace")));
        // THEN its entry went in at the top and the oldest listed went out; the other 99 stayed where they were
        assertThat(listed()).isEqualTo(FIRST);
        ConsolePage.ChildChanges changes = page.childChanges();
        assertThat(changes.added()).as("entries put in").isEqualTo(1);
        assertThat(changes.removed()).as("entries taken out").isEqualTo(1);
    }

    private int listed() {
        return ((Number) browser.executeScript("return document.querySelectorAll('#requests li.request').length;"))
                .intValue();
    }

    private WebElement entry(int index) {
        return (WebElement)
                browser.executeScript("return document.querySelectorAll('#requests li.request')[arguments[0]];", index);
    }

    private String entryAttribute(int index, String name) {
        return (String) browser.executeScript(
                "const li = document.querySelectorAll('#requests li.request')[arguments[0]];"
                        + " return li ? li.getAttribute(arguments[1]) : null;",
                index,
                name);
    }

    /** Scrolls the log's pane to {@code expression} (of {@code pane}), as a wheel or a scrollbar drag would. */
    private void scrollLogTo(String expression) {
        browser.executeScript("const pane = document.getElementById('log-pane'); pane.scrollTop = " + expression + ";");
    }

    @SuppressWarnings("unchecked")
    private List<Map<String, Object>> serverLog() throws Exception {
        return (List<Map<String, Object>>)
                Json.readObject(api.send("GET", "/_console/api/requests", null, List.of(), false)
                                .body())
                        .get("requests");
    }
}
