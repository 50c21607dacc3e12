package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Accessibility;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console for everyone: axe-core's WCAG A/AA rules and best practices in each state a person sees (empty, a
 * collection with a request's diff open, the builder's output, the heat view), with no serious or critical
 * violation; and the page worked from the keyboard alone, with its focus visible.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@UsesBrowser
class ConsoleAccessibilityBrowserTest {
    private final TestEngine engine = TestEngine.get();
    private final String table = "a11y-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("a11y");
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

    private void assertNoSeriousViolation(String state) throws Exception {
        Accessibility.Report report = Accessibility.check(browser);
        report.violations().forEach(v -> System.out.println("axe (" + state + "): " + v));
        assertThat(report.serious()).as("axe on the console: " + state).isEmpty();
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
    void builderOutput_shouldPassAxe() throws Exception {
        browser.findElement(By.id("partition")).sendKeys("WS#" + ws);
        browser.findElement(By.id("build")).click();
        wait.until(d -> !d.findElement(By.id("expr-cli")).getText().isEmpty());
        assertNoSeriousViolation("builder");
    }

    @Test
    @Order(4)
    void heatView_shouldPassAxe() throws Exception {
        browser.findElement(By.id("tab-heat")).click();
        wait.until(d -> !d.findElement(By.id("heat-summary")).getText().startsWith("waiting"));
        assertNoSeriousViolation("heat");
        browser.findElement(By.id("tab-data")).click();
    }

    @Test
    @Order(5)
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
    @Order(6)
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
    }

    @Test
    @Order(7)
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
}
