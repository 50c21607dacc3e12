package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Accessibility;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console for everyone: axe-core's WCAG A/AA rules and best practices in each state a person sees (empty, a
 * collection with a request's diff open, an item's side panel, the builder's output, the heat view), with no
 * serious or critical violation, at each width from a small laptop's to a large screen's (800, 1280 and 1920 px):
 * the page no wider than the window, the collection's columns inside their pane, the side panel covering neither
 * the log nor the collection, and no id used twice. And the page worked from the keyboard alone, with its focus
 * visible: every control reached by Tab, the long lists (the log, the collections) one Tab stop each, walked with
 * the arrow keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@UsesBrowser
class ConsoleAccessibilityBrowserTest {
    private final TestEngine engine = TestEngine.get();
    private final String table = "a11y-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("a11y");
    /** The widths the layout is checked at: a small laptop's, a common one's, a large screen's. */
    private static final List<Dimension> WINDOWS =
            List.of(new Dimension(800, 900), new Dimension(1280, 900), new Dimension(1920, 1080));
    /** Chromium's own window (Chromium.start), put back after each check so the keyboard tests see the page as before. */
    private static final Dimension USUAL_WINDOW = new Dimension(1600, 1100);

    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private ConsolePage page;
    private LocalApi api;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table);
        api = page.api();
        page.open();
        browser = page.browser();
        wait = page.waiter();
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close(); // the browser, then start-api
        }
    }

    /**
     * The page as it stands, at each of {@link #WINDOWS}: axe finds no serious or critical violation, no id is used
     * twice, nothing is wider than the window, the collection's columns fit its pane, and the side panel, when
     * open, covers neither the log nor the collection. A screenshot of each width lands in target/screenshots.
     */
    private void assertNoSeriousViolation(String state) throws Exception {
        Files.createDirectories(SCREENSHOTS);
        // Every width checked before the test fails, so that its message says all that is wrong
        SoftAssertions softly = new SoftAssertions();
        try {
            for (Dimension window : WINDOWS) {
                int width = resize(window);
                String at = state + " at " + width + " px";
                Accessibility.Report report = Accessibility.check(browser);
                report.violations().forEach(v -> System.out.println("axe (" + at + "): " + v));
                Files.write(
                        SCREENSHOTS.resolve("console-" + state.replace(' ', '-') + "-" + width + ".png"),
                        browser.getScreenshotAs(OutputType.BYTES));
                softly.assertThat(report.serious())
                        .as("axe on the console: " + at)
                        .isEmpty();
                softly.assertThat(duplicateIds())
                        .as("ids used more than once: " + at)
                        .isEmpty();
                Map<?, ?> layout = (Map<?, ?>) browser.executeScript(LAYOUT);
                softly.assertThat(number(layout.get("pageWidth")))
                        .as("the page's width against the window's, its scroll bar aside: " + at + " " + layout)
                        .isLessThanOrEqualTo(number(layout.get("window")));
                softly.assertThat((List<?>) layout.get("panesOverflowing"))
                        .as("panes whose content is wider than they are, cut or scrolled sideways: " + at)
                        .isEmpty();
                softly.assertThat(number(layout.get("collectionOverflow")))
                        .as("px of the collection's columns past its pane: " + at + " " + layout)
                        .isLessThanOrEqualTo(0);
                softly.assertThat(number(layout.get("panelOverLog")))
                        .as("px² of the side panel over the log: " + at + " " + layout)
                        .isZero();
                softly.assertThat(number(layout.get("panelOverCollection")))
                        .as("px² of the side panel over the collection: " + at + " " + layout)
                        .isZero();
            }
        } finally {
            browser.manage().window().setSize(USUAL_WINDOW);
        }
        softly.assertAll();
    }

    /**
     * Sizes the window so that the page is {@code window}'s width (the window's frame, if any, added), and returns
     * that width as the page reads it.
     */
    private int resize(Dimension window) {
        browser.manage().window().setSize(window);
        long inner = (Long) browser.executeScript("return window.innerWidth");
        if (inner != window.width) {
            browser.manage()
                    .window()
                    .setSize(new Dimension(window.width + (window.width - (int) inner), window.height));
            inner = (Long) browser.executeScript("return window.innerWidth");
        }
        assertThat(inner).as("the page's width in a window of " + window).isEqualTo(window.width);
        return (int) inner;
    }

    private List<String> duplicateIds() {
        @SuppressWarnings("unchecked")
        List<String> ids = (List<String>) browser.executeScript("const seen = new Set(), twice = new Set();"
                + " for (const e of document.querySelectorAll('[id]')) {"
                + " if (seen.has(e.id)) twice.add(e.id); seen.add(e.id); }"
                + " return [...twice];");
        return ids;
    }

    /**
     * The page's width, the panes whose content is wider than they are, how far the collection's columns reach past
     * its scroller, and the area the side panel shares with the log and with the collection (0 when it is closed).
     */
    private static final String LAYOUT = "const box = (id) => { const e = document.getElementById(id);"
            + " return e && e.checkVisibility() ? e.getBoundingClientRect() : null; };"
            + " const over = (a, b) => !a || !b ? 0 : Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))"
            + " * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));"
            + " const panel = box('item-panel'), scroller = document.getElementById('collection-scroll');"
            + " const page = document.documentElement;"
            + " return { pageWidth: page.scrollWidth, window: page.clientWidth,"
            + " collectionOverflow: scroller.checkVisibility() ? scroller.scrollWidth - scroller.clientWidth : 0,"
            + " panesOverflowing: ['partitions-pane', 'collection-pane', 'item-panel', 'log-pane', 'builder', 'tools',"
            + " 'heat-pane'].map((id) => document.getElementById(id))"
            + " .filter((e) => e.checkVisibility() && e.scrollWidth > e.clientWidth)"
            + " .map((e) => e.id + ' ' + e.scrollWidth + ' > ' + e.clientWidth),"
            + " panelOverLog: Math.round(over(panel, box('log-pane'))),"
            + " panelOverCollection: Math.round(over(panel, box('collection-pane'))) };";

    private static double number(Object value) {
        return ((Number) value).doubleValue();
    }

    @Test
    @Order(1)
    void emptyConsole_shouldPassAxe_andSayWhatToDoNext() throws Exception {
        // GIVEN a table with nothing in it: the empty states say what to do, not only that there is nothing
        wait.until(d -> !d.findElements(By.cssSelector("#partitions .empty")).isEmpty());
        assertThat(browser.findElement(By.cssSelector("#partitions .empty")).getText())
                .contains("POST /workspaces");
        assertThat(browser.findElement(By.cssSelector("#requests-empty")).getText())
                .contains("requests");
        assertNoSeriousViolation("empty");
    }

    @Test
    @Order(2)
    void collectionAndDiff_shouldPassAxe() throws Exception {
        // GIVEN a workspace and a project made through the API, the collection open and the create's diff shown
        var created = api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"A11y\"}", List.of(), true);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        // a keyed create: its idempotency record is a dimmed row, which must stay readable
        var project = api.send(
                "POST",
                "/workspaces/" + ws + "/projects",
                "{\"name\":\"p\"}",
                List.of(ws),
                false,
                "Idempotency-Key",
                "a11y-" + UUID.randomUUID());
        assertThat(project.statusCode()).as(project.body()).isEqualTo(201);
        wait.until(d -> (Boolean) browser.executeScript(
                "const b = document.querySelector(`#partitions .tenant-name[data-tenant='${arguments[0]}']`);"
                        + " if (b) b.click(); return b != null;",
                ws));
        wait.until(d -> ws.equals(d.findElement(By.id("collection-title")).getAttribute("data-view")));
        wait.until(d -> !d.findElements(By.cssSelector("#collection tr.kind-idempotency"))
                .isEmpty());
        wait.until(d -> !d.findElements(By.cssSelector("#requests li.request")).isEmpty());
        browser.findElement(By.cssSelector("#requests li.request")).click();
        wait.until(d -> !d.findElements(By.cssSelector("#request-detail .diff")).isEmpty());
        assertNoSeriousViolation("collection and diff");
    }

    @Test
    @Order(3)
    void itemPanel_shouldPassAxe_besideTheLog() throws Exception {
        // GIVEN the collection open WHEN its project's row is clicked THEN its side panel shows
        openProjectPanel();
        assertNoSeriousViolation("item panel");
        browser.findElement(By.id("item-close")).click();
    }

    /** Clicks the workspace's project row and waits for its side panel. */
    private void openProjectPanel() {
        wait.until(d -> (Boolean) browser.executeScript(
                "const tr = document.querySelector(\"#collection tbody tr[data-kind='project']\");"
                        + " if (tr) tr.click(); return tr != null;"));
        wait.until(d -> d.findElement(By.id("item-panel")).isDisplayed());
    }

    @Test
    @Order(4)
    void builderOutput_shouldPassAxe() throws Exception {
        browser.findElement(By.id("partition")).sendKeys("WS#" + ws);
        browser.findElement(By.id("build")).click();
        wait.until(d -> !d.findElement(By.id("expr-cli")).getText().isEmpty());
        // the builder and the table tools in the screenshots
        browser.executeScript("document.getElementById('builder').scrollIntoView()");
        assertNoSeriousViolation("builder");
    }

    @Test
    @Order(5)
    void heatView_shouldPassAxe() throws Exception {
        browser.findElement(By.id("tab-heat")).click();
        wait.until(d -> !d.findElement(By.id("heat-summary")).getText().startsWith("waiting"));
        assertNoSeriousViolation("heat");
        browser.findElement(By.id("tab-data")).click();
    }

    @Test
    @Order(6)
    void keyboardAlone_shouldOpenACollection_withFocusVisible() {
        // GIVEN the page reloaded, nothing focused
        browser.navigate().refresh();
        wait.until(d -> d.findElement(By.id("status")).getText().equals("live"));
        wait.until(
                d -> !d.findElements(By.cssSelector("#partitions .tenant-name")).isEmpty());
        // WHEN Tab moves through the page until the workspace's button has the focus, and Enter is pressed
        WebElement focused = null;
        for (int i = 0; i < 40; i++) {
            // A key to whatever has the focus (an element's sendKeys on the header's file input would be a path).
            new Actions(browser).sendKeys(Keys.TAB).perform();
            focused = browser.switchTo().activeElement();
            if (ws.equals(focused.getAttribute("data-tenant"))) {
                break;
            }
        }
        assertThat(focused.getAttribute("data-tenant"))
                .as("Tab reaches the workspace")
                .isEqualTo(ws);
        // THEN the focus is visible: an outline a person can see
        String outline = (String) browser.executeScript(
                "const s = getComputedStyle(document.activeElement); return s.outlineStyle + ' ' + s.outlineWidth;");
        assertThat(outline).doesNotStartWith("none").doesNotEndWith(" 0px");
        focused.sendKeys(Keys.ENTER);
        wait.until(d -> ws.equals(d.findElement(By.id("collection-title")).getAttribute("data-view")));
    }

    @Test
    @Order(7)
    void requestLog_shouldBeWorkedByKeyboard() {
        // GIVEN the log with two requests, the newest focused
        wait.until(d -> d.findElements(By.cssSelector("#requests li.request")).size() >= 2);
        List<WebElement> requests = browser.findElements(By.cssSelector("#requests li.request"));
        browser.executeScript("arguments[0].focus()", requests.get(0));
        // WHEN ArrowDown moves to the older one and Enter opens it
        browser.switchTo().activeElement().sendKeys(Keys.ARROW_DOWN);
        WebElement focused = browser.switchTo().activeElement();
        assertThat(focused.getAttribute("data-id")).isEqualTo(requests.get(1).getAttribute("data-id"));
        focused.sendKeys(Keys.ENTER);
        // THEN its detail shows, and it is the selected one
        wait.until(d -> focused.getAttribute("class").contains("selected"));
        assertThat(browser.findElement(By.id("request-detail")).isDisplayed()).isTrue();
        // AND the list says so to a screen reader: a listbox of options, the one opened selected
        assertThat(browser.findElement(By.id("requests")).getAttribute("role")).isEqualTo("listbox");
        assertThat(focused.getAttribute("role")).isEqualTo("option");
        assertThat(focused.getAttribute("aria-selected")).isEqualTo("true");
        assertThat(requests.get(0).getAttribute("aria-selected")).isEqualTo("false");
    }

    @Test
    @Order(8)
    void tabs_shouldFollowTheArrowKeys() {
        // GIVEN the Data tab focused; WHEN ArrowRight; THEN the Heat tab is selected, focused and shown
        browser.findElement(By.id("tab-data")).click();
        browser.findElement(By.id("tab-data")).sendKeys(Keys.ARROW_RIGHT);
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("tab-heat");
        assertThat(browser.findElement(By.id("tab-heat")).getAttribute("aria-selected"))
                .isEqualTo("true");
        assertThat(browser.findElement(By.id("heat-pane")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("data-pane")).isDisplayed()).isFalse();
        browser.findElement(By.id("tab-heat")).sendKeys(Keys.ARROW_LEFT);
        assertThat(browser.findElement(By.id("data-pane")).isDisplayed()).isTrue();
    }

    /** More Tab stops than a page of this test could have: the walk ends even if focus never comes round again. */
    private static final int MAX_STOPS = 1000;

    /**
     * One step of a keyboard walk: the focused element recorded as reached (and as a Tab stop when {@code
     * arguments[0]}); says "again" when it is the page itself or, on a Tab, an element already a Tab stop, and
     * "arrows" when a new Tab stop may answer the arrow keys (not a field, whose arrows are its own).
     */
    private static final String STEP = "const w = window.__walk ??= { reached: new Set(), stops: [] };"
            + " const e = document.activeElement, tab = arguments[0];"
            + " if (e === document.body || e == null || (tab && w.stops.includes(e))) return 'again';"
            + " const known = w.reached.has(e); w.reached.add(e); if (tab) w.stops.push(e);"
            + " if (!tab) return known ? 'again' : 'moved';"
            + " return e.matches('input, select, textarea') ? 'stop' : 'arrows';";

    @Test
    @Order(9)
    void tab_shouldReachEveryControl_eachLongListOneStop() throws Exception {
        // GIVEN three collections, two index keys and a log of over 40 requests, the page loaded afresh, nothing
        // focused
        ConsolePage.createWorkspace(api, Api.freshWorkspaceId("a11yb"));
        ConsolePage.createWorkspace(api, Api.freshWorkspaceId("a11yc"));
        for (int i = 0; i < 40; i++) {
            api.send("GET", "/workspaces/" + ws, null, List.of(ws), false);
        }
        browser.navigate().refresh();
        wait.until(d -> d.findElement(By.id("status")).getText().equals("live"));
        wait.until(
                d -> d.findElements(By.cssSelector("#partitions .tenant-name")).size() >= 3);
        wait.until(d -> d.findElements(By.cssSelector("#requests li.request")).size() >= 40);
        // WHEN Tab alone walks the page from its top
        Map<?, ?> tabs = walk(false);
        System.out.println("Tab alone: " + tabs.get("stops") + " Tab stops, " + tabs.get("toTools")
                + " Tabs to the table tools, " + tabs.get("requests") + " in the log, " + tabs.get("partitions")
                + " in the collections, " + tabs.get("index") + " in the index list");
        // THEN the log and the collections are one Tab stop each, however many entries they list
        assertThat(number(tabs.get("requests")))
                .as("Tab stops in the request log")
                .isEqualTo(1);
        assertThat(number(tabs.get("partitions")))
                .as("Tab stops in the collections")
                .isEqualTo(1);
        assertThat(number(tabs.get("index"))).as("Tab stops in the index list").isEqualTo(1);
        // WHEN Tab walks it again, and at each new stop that is not a field ArrowDown walks on while the focus moves
        Map<?, ?> keys = walk(true);
        // THEN every control is reached, by Tab or by the arrows of the list it is in (Import aside: helper PANEL)
        assertThat((List<?>) keys.get("unreached"))
                .as("controls no key reaches")
                .isEmpty();
    }

    /**
     * Walks the page from its top with Tab (and, when {@code arrows}, with ArrowDown from each new Tab stop that is
     * not a field, while the focus moves) until the focus comes round again; returns the Tab stops in all, in the
     * log and in the collections, the Tabs to the table tools, and the shown controls the walk never focused.
     */
    private Map<?, ?> walk(boolean arrows) {
        browser.executeScript("document.activeElement?.blur(); window.scrollTo(0, 0); window.__walk = null;");
        Actions keys = new Actions(browser);
        for (int i = 0; i < MAX_STOPS; i++) {
            keys.sendKeys(Keys.TAB).perform();
            Object step = browser.executeScript(STEP, true);
            if ("again".equals(step)) {
                break;
            }
            for (int j = 0; arrows && ("arrows".equals(step) || "moved".equals(step)); j++) {
                assertThat(j).as("arrow steps from one Tab stop").isLessThan(MAX_STOPS);
                keys.sendKeys(Keys.ARROW_DOWN).perform();
                step = browser.executeScript(STEP, false);
            }
        }
        return (Map<?, ?>) browser.executeScript(
                "const w = window.__walk; const inside = (id) => w.stops.filter((e) => e.closest('#' + id)).length;"
                        + " const unreached = [...document.querySelectorAll("
                        + "'a[href], button, input, select, textarea, summary, [tabindex]')]"
                        + " .filter((e) => e.checkVisibility({ visibilityProperty: true }) && !e.matches(':disabled'))"
                        + " .filter((e) => e.id !== 'import-fixtures' && !w.reached.has(e))"
                        // a tab other than the selected one is reached by the tab list's arrow keys (tabs_should...)
                        + " .filter((e) => !(e.getAttribute('role') === 'tab'"
                        + " && [...e.closest('[role=tablist]').children].some((t) => w.reached.has(t))))"
                        + " .map((e) => e.outerHTML.slice(0, 160));"
                        + " return { stops: w.stops.length, requests: inside('requests'),"
                        + " partitions: inside('partitions'), index: inside('index-partitions'), toTools: w.stops.findIndex((e) => e.closest('#tools')) + 1,"
                        + " unreached };");
    }

    @Test
    @Order(10)
    void escape_shouldCloseThePanel_fromAnyControlInIt_andGiveTheFocusBackToItsRow() {
        // GIVEN the workspace's collection open and its project's panel shown
        ConsolePage.openTenant(browser, ws);
        openProjectPanel();
        String row = browser.findElement(By.cssSelector("#collection tbody tr[aria-selected='true']"))
                .getAttribute("data-key");
        By inside = By.cssSelector("#item-panel :is(a[href], button, input, select, textarea, summary, [tabindex])");
        int controls = browser.findElements(inside).size();
        assertThat(controls).as("controls in the panel").isGreaterThanOrEqualTo(3);
        for (int i = 0; i < controls; i++) {
            WebElement panel = browser.findElement(By.id("item-panel"));
            if (!panel.isDisplayed()) { // reopened from the keyboard: Enter on the collection
                browser.findElement(By.id("collection-scroll")).sendKeys(Keys.ENTER);
                wait.until(d -> panel.isDisplayed());
            }
            WebElement control = browser.findElements(inside).get(i);
            String name = control.getAttribute("outerHTML");
            browser.executeScript("arguments[0].focus()", control);
            // WHEN Escape is pressed on each of its controls
            new Actions(browser).sendKeys(Keys.ESCAPE).perform();
            // THEN the panel closes, and the focus is back on the collection, on the row that opened the panel
            assertThat(panel.isDisplayed())
                    .as("the panel after Escape on " + name)
                    .isFalse();
            assertThat(browser.switchTo().activeElement().getAttribute("id"))
                    .as("the focus after Escape on " + name)
                    .isEqualTo("collection-scroll");
            assertThat(browser.findElement(By.cssSelector("#collection tbody tr[aria-selected='true']"))
                            .getAttribute("data-key"))
                    .isEqualTo(row);
        }
    }
}
