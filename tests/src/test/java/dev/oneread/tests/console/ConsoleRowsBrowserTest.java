package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console read at 1280x800 (issue 25, "hard to read"): one line an item with its key, kind, name, status,
 * version, update time and size, long values cut without widening a column; a selected row's side panel with the
 * item in both JSON forms and its writes from the log; a request's diff that fits its pane.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
class ConsoleRowsBrowserTest {
    /** A row's height in the page (collection.js ROW): one line of text. */
    private static final long ROW_PX = 22;

    private final TestEngine engine = TestEngine.get();
    private final String table = "console-rows-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("rows");
    private final List<String> projects = new ArrayList<>();
    private final String longName = "a name far longer than its column " + "x".repeat(150);
    private ConsolePage page;
    private LocalApi api;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table, new Dimension(1280, 800));
        api = page.api;
        browser = page.browser;
        // Rows are drawn anew when their item changes, so a row found a moment ago can be gone: look again.
        wait = new WebDriverWait(browser, Eventually.FAILSAFE);
        wait.ignoring(StaleElementReferenceException.class);
        ConsolePage.createWorkspace(api, ws);
        // GIVEN projects, one with a long name, one created with a long idempotency key (its record's sort key is
        // IDEM# and 64 hex characters)
        for (int i = 0; i < 5; i++) {
            projects.add(create("{\"name\":\"project " + i + "\"}"));
        }
        projects.add(create("{\"name\":\"" + longName + "\"}"));
        create("{\"name\":\"keyed\"}", "Idempotency-Key", "k-" + "9".repeat(200));
        Files.createDirectories(ConsoleBrowserTest.SCREENSHOTS);
        page.open();
    }

    @BeforeEach
    void openCollection() {
        page.openTenant(ws);
        wait.until(d -> !rows().isEmpty());
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    private String create(String body, String... headers) throws Exception {
        HttpResponse<String> response =
                api.send("POST", "/workspaces/" + ws + "/projects", body, List.of(ws), false, headers);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return (String) Json.readObject(response.body()).get("id");
    }

    /** PATCHes a project at its first version; its path. */
    private String patchFirstVersion(String id, String body) throws Exception {
        String path = "/workspaces/" + ws + "/projects/" + id;
        HttpResponse<String> patched = api.send("PATCH", path, body, List.of(ws), false, "If-Match", "\"1\"");
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        return path;
    }

    private List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#collection tbody tr"));
    }

    private WebElement row(String sort) {
        return wait.until(d -> d.findElement(By.cssSelector("#collection tbody tr[data-sort='" + sort + "']")));
    }

    private List<String> cells(WebElement row) {
        return row.findElements(By.tagName("td")).stream()
                .map(WebElement::getText)
                .toList();
    }

    @Test
    void rowsAt1280_shouldBeOneLineEach_withNameAndStatusOnScreen_andLongValuesCut() throws Exception {
        // THEN every row is one line, of the fixed height the page places rows by
        assertThat(rows())
                .hasSize(1 + projects.size() + 1 + 1) // META, the projects, the keyed one, its idempotency record
                .allSatisfy(tr -> assertThat(tr.getRect().getHeight()).isEqualTo(ROW_PX));
        // AND the table is no wider than its pane: nothing to scroll sideways, every column on screen
        Map<?, ?> widths = (Map<?, ?>) browser.executeScript("const s = document.getElementById('collection-scroll');"
                + " const t = document.getElementById('collection');"
                + " return { pane: s.clientWidth, table: t.scrollWidth,"
                + " overflow: s.scrollWidth - s.clientWidth,"
                + " right: Math.max(...[...t.querySelectorAll('th')]"
                + ".map((th) => th.getBoundingClientRect().right)),"
                + " paneRight: s.getBoundingClientRect().right };");
        assertThat(((Number) widths.get("overflow")).longValue()).isZero();
        assertThat(((Number) widths.get("table")).longValue())
                .isLessThanOrEqualTo(((Number) widths.get("pane")).longValue());
        assertThat(((Number) widths.get("right")).doubleValue())
                .isLessThanOrEqualTo(((Number) widths.get("paneRight")).doubleValue());
        // AND a project's row reads: key, kind, name, status, version, updated, size
        List<String> first = cells(row("PROJ#" + projects.get(0)));
        assertThat(first.subList(0, 5))
                .containsExactly("PROJ#" + projects.get(0), "project", "project 0", "ACTIVE", "1");
        assertThat(first.get(5)).matches("\\d\\d:\\d\\d:\\d\\d");
        assertThat(first.get(6)).matches("\\d+ B");
        // AND the idempotency record's long key is cut in the middle, whole in its title
        WebElement idempotency = browser.findElement(By.cssSelector("#collection tbody tr[data-kind='idempotency']"));
        String sort = idempotency.getAttribute("data-sort");
        WebElement key = idempotency.findElement(By.tagName("td"));
        assertThat(sort).startsWith("IDEM#").hasSize(69);
        assertThat(key.getText()).hasSizeLessThanOrEqualTo(29).contains("…").startsWith("IDEM#");
        assertThat(key.getAttribute("title")).contains(sort);
        // AND the long name is cut by its column, whole in its title
        WebElement name =
                row("PROJ#" + projects.get(5)).findElements(By.tagName("td")).get(2);
        assertThat(name.getAttribute("title")).isEqualTo(longName);
        assertThat((Boolean) browser.executeScript("return arguments[0].scrollWidth > arguments[0].clientWidth;", name))
                .isTrue();
        Files.write(
                ConsoleBrowserTest.SCREENSHOTS.resolve("console-rows-1280.png"),
                browser.getScreenshotAs(OutputType.BYTES));
    }

    @Test
    void aCreateInTheWindow_shouldAddItsRowAlone_theRowsOnScreenKeptInPlace() throws Exception {
        // GIVEN the collection open, all of it on screen, and a watch on the rows put into and taken out of the table
        int before = rows().size();
        page.watchChildren("#collection tbody");
        // WHEN a project is created (its row sorts last, inside the window)
        projects.add(create("{\"name\":\"one more\"}"));
        wait.until(d -> rows().size() == before + 1);
        // THEN its row alone went into the table, and none came out: the others are not restyled and laid out again
        ConsolePage.ChildChanges changes = page.childChanges();
        assertThat(changes.added()).as("rows put in").isEqualTo(1);
        assertThat(changes.removed()).as("rows taken out").isZero();
    }

    @Test
    void aReload_shouldKeepTheRowsItHeld_unchanged() throws Exception {
        // GIVEN the collection open, all of it on screen, a watch on the rows put into and taken out of the table, and
        // on the pages the collection draws from a fetch
        int before = rows().size();
        page.watchChildren("#collection tbody");
        browser.executeScript("window.pagesApplied = 0;"
                + " document.addEventListener('oneread:page-applied', () => { window.pagesApplied += 1; });");
        // WHEN the console rescans the table, and the page reloads the collection (as after a reconnect)
        assertThat(api.send("POST", "/_console/api/rescan", null, List.of(), false)
                        .statusCode())
                .isEqualTo(200);
        wait.until(d -> ((Number) browser.executeScript("return window.pagesApplied;")).intValue() > 0);
        // THEN no row went into the table or came out: nothing changed, so nothing is styled and laid out again
        assertThat(rows()).hasSize(before);
        ConsolePage.ChildChanges changes = page.childChanges();
        assertThat(changes.added()).as("rows put in").isZero();
        assertThat(changes.removed()).as("rows taken out").isZero();
    }

    @Test
    void selectingARow_shouldOpenThePanel_withBothJsonForms_andItsHistoryNewestFirst() throws Exception {
        // GIVEN a project renamed after its creation: two writes in the log
        String id = projects.get(2);
        String path = patchFirstVersion(id, "{\"name\":\"renamed\"}");
        wait.until(d -> row("PROJ#" + id).getText().contains("renamed"));
        // WHEN its row is clicked
        wait.until(d -> {
            row("PROJ#" + id).click();
            return true;
        });
        WebElement panel = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("item-panel")));
        // THEN the panel shows the item as DynamoDB JSON, key attributes included
        Map<String, Object> dynamo =
                Json.readObject(panel.findElement(By.id("item-dynamodb")).getText());
        assertThat(dynamo)
                .containsEntry("EntityRef", Map.of("S", "WS#" + ws))
                .containsEntry("Detail", Map.of("S", "PROJ#" + id))
                .containsEntry("name", Map.of("S", "renamed"))
                .containsEntry("version", Map.of("N", "2"));
        // AND as plain JSON, numbers as numbers
        Map<String, Object> plain =
                Json.readObject(panel.findElement(By.id("item-plain")).getText());
        assertThat(plain)
                .containsEntry("Detail", "PROJ#" + id)
                .containsEntry("name", "renamed")
                .containsEntry("status", "ACTIVE");
        assertThat(((Number) plain.get("version")).intValue()).isEqualTo(2);
        assertThat(panel.findElements(By.cssSelector("button.copy[data-copy='item-dynamodb']")))
                .hasSize(1);
        assertThat(panel.findElements(By.cssSelector("button.copy[data-copy='item-plain']")))
                .hasSize(1);
        // AND its history from the log, newest first: the rename's diff, then the create's
        List<WebElement> history = panel.findElements(By.cssSelector("#item-history li.history-entry"));
        assertThat(history).hasSize(2);
        assertThat(history.get(0).getText()).contains("PATCH " + path + " → 200", "UpdateItem WS#" + ws);
        assertThat(history.get(0).findElements(By.cssSelector("tr.diff-changed")).stream()
                        .map(tr -> tr.findElement(By.tagName("td")).getText()))
                .contains("name", "version");
        assertThat(history.get(1).getText())
                .contains("POST /workspaces/" + ws + "/projects → 201", "PutItem WS#" + ws + " / PROJ#" + id);
        Files.write(
                ConsoleBrowserTest.SCREENSHOTS.resolve("console-item-panel-1280.png"),
                browser.getScreenshotAs(OutputType.BYTES));
        // WHEN the arrow key moves the selection down THEN the next row is selected, and the panel follows it
        String next = "PROJ#" + projects.get(3);
        browser.findElement(By.id("collection-scroll")).sendKeys(Keys.ARROW_DOWN);
        wait.until(d -> "true".equals(row(next).getAttribute("aria-selected")));
        wait.until(d -> d.findElement(By.id("item-title")).getText().endsWith("/ " + next));
        assertThat(row("PROJ#" + id).getAttribute("aria-selected")).isEqualTo("false");
        // AND Escape closes the panel, Enter opens it again
        browser.findElement(By.id("collection-scroll")).sendKeys(Keys.ESCAPE);
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("item-panel")));
        browser.findElement(By.id("collection-scroll")).sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("item-panel")));
        browser.findElement(By.id("item-close")).click();
    }

    @Test
    void requestDiff_shouldFitItsPane_longValuesWrappedInTheirCells() throws Exception {
        // GIVEN a project given a description of 600 characters with no space to break at
        String id = projects.get(1);
        String path = patchFirstVersion(id, "{\"description\":\"" + "d".repeat(600) + "\"}");
        // WHEN its request is opened in the log
        WebElement entry = wait.until(d -> d.findElements(By.cssSelector("#requests li.request")).stream()
                .filter(li -> li.getText().contains("PATCH") && li.getText().contains(path))
                .findFirst()
                .orElse(null));
        entry.click();
        WebElement diff = wait.until(d -> d.findElement(By.cssSelector("#request-detail .diff table")));
        // THEN the diff's "after" column ends inside the pane: the value wraps in its cell
        Map<?, ?> edges = (Map<?, ?>) browser.executeScript(
                "const d = document.getElementById('request-detail'); const t = arguments[0];"
                        + " const added = [...t.querySelectorAll('tr.diff-added td')].at(-1);"
                        + " return { pane: d.getBoundingClientRect().right, table: t.getBoundingClientRect().right,"
                        + " after: added.getBoundingClientRect().right, overflow: d.scrollWidth - d.clientWidth,"
                        + " text: added.textContent.length };",
                diff);
        assertThat(((Number) edges.get("text")).longValue()).isGreaterThan(600);
        assertThat(((Number) edges.get("overflow")).longValue()).isZero();
        assertThat(((Number) edges.get("after")).doubleValue())
                .isLessThanOrEqualTo(((Number) edges.get("pane")).doubleValue());
        assertThat(((Number) edges.get("table")).doubleValue())
                .isLessThanOrEqualTo(((Number) edges.get("pane")).doubleValue());
    }
}
