package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A filtered read in the table tools fills its page, as a person sees it: the matches, the items read against the
 * budget they typed, the calls, the capacity and why it stopped; Next resumes where the read stopped, to the end,
 * each match once; the snippets follow the deployed-table box; a budget out of bounds is refused before a read. And a
 * PartiQL SELECT, paged to the end with its NextToken; a PartiQL write refused.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
class ConsoleFilledReadsBrowserTest {
    private static final int ITEMS = 200;

    private final TestEngine engine = TestEngine.get();
    private final String table = "filledb-" + UUID.randomUUID().toString().substring(0, 8);
    private final String partition = "FILLB#" + UUID.randomUUID().toString().substring(0, 8);
    private ConsolePage page;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table);
        // GIVEN 200 items in one partition, one in ten with status "hit"
        SeededPartition.write(engine, table, partition, null, ITEMS, i -> i % 10 == 0);
        page.open();
        browser = page.browser();
        wait = page.waiter();
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void filteredQuery_shouldFillThePage_showItsFigures_andNextShouldResumeToTheEnd() {
        // GIVEN a Query of the partition filtered on status = hit, 6 matches a page, a budget of 5,000 items
        form("6", "5000", "hit");
        // WHEN run
        run("read-run");
        // THEN the page holds 6 matches (the old console showed the one its first call found, "Count 1 · more pages")
        WebElement summary = browser.findElement(By.id("read-summary"));
        assertThat(sorts()).containsExactly(items(0, 10, 20, 30, 40, 50));
        assertThat(summary.getAttribute("data-count")).isEqualTo("6");
        assertThat(summary.getAttribute("data-stopped")).isEqualTo("page full");
        // AND its figures: items read, calls and capacity, as the rule makes them (Limit 6, 5 x 2, 4 x 4, 2 x 8, 1 x
        // 16: 64 items)
        assertThat(summary.getAttribute("data-scanned-count")).isEqualTo("64");
        assertThat(summary.getAttribute("data-calls")).isEqualTo("5");
        assertThat(summary.getAttribute("data-consumed")).isEqualTo("2.5");
        assertThat(summary.getText())
                .contains("6 matches of 6", "64 items read of a budget of 5000", "5 calls", "consumed 2.5 RCU")
                .contains("stopped: page full", "Next resumes after the last item kept")
                .doesNotContain("Count", "more pages");
        // AND its snippets, for this engine
        assertThat(browser.findElement(By.id("read-python")).getText()).contains("boto3", engine.endpoint.toString());
        assertThat(browser.findElement(By.id("read-javascript")).getText()).contains("@aws-sdk/client-dynamodb");
        assertThat(browser.findElement(By.id("read-cli")).getText()).contains("--endpoint-url");
        assertThat(browser.findElement(By.id("read-java")).getText()).contains("public class QueryPage");
        // WHEN Next is clicked until there is none
        List<String> seen = new ArrayList<>(sorts());
        while (browser.findElement(By.id("read-next")).isEnabled()) {
            run("read-next");
            seen.addAll(sorts());
        }
        // THEN every match once, in order, and the last page says the partition ended
        List<String> all = new ArrayList<>();
        for (int i = 0; i < ITEMS; i += 10) {
            all.add(String.format("ITEM#%04d", i));
        }
        assertThat(seen).containsExactlyElementsOf(all);
        assertThat(browser.findElement(By.id("read-summary")).getAttribute("data-stopped"))
                .isEqualTo("end");
        assertThat(browser.findElement(By.id("read-summary")).getText()).contains("no more pages");
    }

    @Test
    void budget_shouldStopTheRead_andBeShown_andABudgetRefusedShouldReadNothing() {
        // GIVEN a filter nothing matches, with a budget of 30 items read
        form("5", "30", "none");
        // WHEN run
        run("read-run");
        // THEN it stopped on the budget, at exactly 30 items read, and Next can go on
        WebElement summary = browser.findElement(By.id("read-summary"));
        assertThat(summary.getAttribute("data-stopped")).isEqualTo("budget spent");
        assertThat(summary.getAttribute("data-scanned-count")).isEqualTo("30");
        assertThat(summary.getText()).contains("0 matches of 5", "30 items read of a budget of 30");
        assertThat(browser.findElement(By.id("read-next")).isEnabled()).isTrue();
        // WHEN the deployed-table box is checked
        browser.findElement(By.id("deployed")).click();
        // THEN the snippets are for the deployed table, with no endpoint, and the page's summary is the same
        wait.until(d -> !d.findElement(By.id("read-cli")).getText().contains("--endpoint-url"));
        assertThat(browser.findElement(By.id("read-python")).getText()).doesNotContain("endpoint_url");
        assertThat(summary.getAttribute("data-scanned-count")).isEqualTo("30");
        browser.findElement(By.id("deployed")).click();
        wait.until(d -> d.findElement(By.id("read-cli")).getText().contains("--endpoint-url"));
        // WHEN the budget is 0
        form("5", "0", "none");
        browser.findElement(By.id("read-run")).click();
        // THEN the page refuses it before any request (the field's own bounds, 1 to 100,000; the server refuses it
        // too, ConsoleToolsInputTest), saying why, and the page shown is still the last one read
        WebElement budget = browser.findElement(By.id("read-budget"));
        assertThat((Boolean) browser.executeScript("return arguments[0].checkValidity();", budget))
                .isFalse();
        assertThat(budget.getAttribute("validationMessage")).isNotEmpty();
        assertThat(summary.getAttribute("data-scanned-count")).isEqualTo("30");
        assertThat(summary.getAttribute("data-stopped")).isEqualTo("budget spent");
    }

    @Test
    void partiqlSelect_shouldShowItsPage_andNextShouldResumeToTheEnd() {
        // GIVEN a SELECT of the partition's hits, 8 items a page (the WHERE on status filters after the Limit)
        WebElement text = browser.findElement(By.id("statement-text"));
        text.clear();
        text.sendKeys(
                "SELECT * FROM \"" + table + "\" WHERE \"EntityRef\" = '" + partition + "' AND \"status\" = 'hit'");
        type("statement-limit", "80");
        // WHEN run, then Next until there is none
        List<String> seen = new ArrayList<>();
        runStatement("statement-run");
        assertThat(browser.findElement(By.id("statement-python")).getText()).contains("execute_statement");
        seen.addAll(statementSorts());
        while (browser.findElement(By.id("statement-next")).isEnabled()) {
            runStatement("statement-next");
            seen.addAll(statementSorts());
        }
        // THEN every hit once, in the partition's order, and the last page says so
        List<String> all = new ArrayList<>();
        for (int i = 0; i < ITEMS; i += 10) {
            all.add(SeededPartition.sort(i));
        }
        assertThat(seen).containsExactlyElementsOf(all);
        assertThat(browser.findElement(By.id("statement-summary")).getText()).contains("no more pages");
        // WHEN a write is asked
        text.clear();
        text.sendKeys(
                "DELETE FROM \"" + table + "\" WHERE \"EntityRef\" = '" + partition + "' AND \"Detail\" = 'ITEM#0000'");
        browser.findElement(By.id("statement-run")).click();
        // THEN a 400 that says why, and the item is still there
        WebElement error = wait.until(d -> {
            WebElement e = d.findElement(By.id("statement-error"));
            return e.isDisplayed() ? e : null;
        });
        assertThat(error.getText()).contains("400", "only a SELECT runs here");
        assertThat(engine.client
                        .getItem(b -> b.tableName(table)
                                .key(Map.of(
                                        "EntityRef", AttributeValue.fromS(partition),
                                        "Detail", AttributeValue.fromS("ITEM#0000"))))
                        .hasItem())
                .isTrue();
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private void runStatement(String button) {
        browser.executeScript("document.getElementById('statement-summary').textContent = '';");
        browser.findElement(By.id(button)).click();
        wait.until(d -> !d.findElement(By.id("statement-summary")).getText().isEmpty());
    }

    private List<String> statementSorts() {
        return browser.findElements(By.cssSelector("#statement-items tbody tr[data-sort]")).stream()
                .map(tr -> tr.getAttribute("data-sort"))
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private void form(String limit, String budget, String status) {
        browser.executeScript("document.getElementById('read-filters').replaceChildren();"
                + " document.getElementById('read-error').hidden = true;");
        new Select(browser.findElement(By.id("read-target"))).selectByValue("table");
        new Select(browser.findElement(By.id("read-mode"))).selectByValue("query");
        type("read-partition", partition);
        type("read-limit", limit);
        type("read-budget", budget);
        browser.findElement(By.id("read-add-filter")).click();
        WebElement filter = browser.findElement(By.cssSelector("#read-filters li.filter"));
        filter.findElement(By.cssSelector(".filter-attribute")).sendKeys("status");
        filter.findElement(By.cssSelector(".filter-value")).sendKeys(status);
    }

    private void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    /** Clicks Run or Next, and waits for the page it brings. */
    private void run(String button) {
        browser.executeScript("document.getElementById('read-summary').textContent = '';");
        browser.findElement(By.id(button)).click();
        wait.until(d -> !d.findElement(By.id("read-summary")).getText().isEmpty());
    }

    private List<String> sorts() {
        return browser.findElements(By.cssSelector("#read-items tbody tr[data-sort]")).stream()
                .map(tr -> tr.getAttribute("data-sort"))
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static String[] items(int... numbers) {
        String[] out = new String[numbers.length];
        for (int i = 0; i < numbers.length; i++) {
            out[i] = String.format("ITEM#%04d", numbers[i]);
        }
        return out;
    }
}
