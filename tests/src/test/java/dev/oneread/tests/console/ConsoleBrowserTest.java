package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Chromium;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser (Debian's chromium), doing what a person does: data made through the API, then
 * the console opened and read. start-api runs on a table of its own, so the console shows only this test's data.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@UsesBrowser
class ConsoleBrowserTest {
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final TestEngine engine = TestEngine.get();
    private final String table = "console-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("console");
    private final String hot = Api.freshWorkspaceId("hot");
    /** Planned at 10 shards like {@code hot}, but given one project: data in one shard only. */
    private final String sparse = Api.freshWorkspaceId("sparse");

    private final List<String> projects = new ArrayList<>();
    private LocalApi api;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of("HotTenantShards", hot + "=10," + sparse + "=10"));
        // GIVEN a workspace and 30 projects, and a hot tenant of 10 shards, all made through the API
        assertThat(api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Console\"}", List.of(), true)
                        .statusCode())
                .isEqualTo(201);
        for (int i = 0; i < 30; i++) {
            projects.add(create(ws, "{\"name\":\"project " + i + "\"}"));
        }
        api.send("POST", "/workspaces", "{\"id\":\"" + hot + "\",\"name\":\"Hot\"}", List.of(), true);
        for (int i = 0; i < 100; i++) { // 100 ids put a project on each of the 10 shards (1 - 10 * 0.9^100)
            create(hot, "{\"name\":\"hot " + i + "\"}");
        }
        browser = Chromium.start();
        wait = new WebDriverWait(browser, Eventually.FAILSAFE);
        // Log entries and rows are drawn anew or dropped as the page goes on: a wait looks again (ConsolePage's too).
        wait.ignoring(StaleElementReferenceException.class);
        Files.createDirectories(SCREENSHOTS);
        browser.get(api.uri("/_console").toString());
        wait.until(d -> d.findElement(By.id("status")).getText().equals("live"));
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (api != null) {
            api.close();
        }
    }

    private String create(String workspace, String body) throws Exception {
        HttpResponse<String> response =
                api.send("POST", "/workspaces/" + workspace + "/projects", body, List.of(workspace), false);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return (String) Json.readObject(response.body()).get("id");
    }

    private void openTenant(String tenant) {
        ConsolePage.openTenant(browser, tenant);
    }

    private List<WebElement> rows() {
        return new ConsolePage(browser, wait).rows();
    }

    private WebElement newestRequest(String method, String path) {
        return new ConsolePage(browser, wait).newestRequest(method, path);
    }

    private void screenshot(String name) throws Exception {
        Files.write(SCREENSHOTS.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    @Test
    @Order(1)
    void collection_shouldBeOneBlock_metaFirst_then30ProjectsNewestLast() throws Exception {
        // WHEN the workspace's collection is opened
        openTenant(ws);
        wait.until(d -> rows().size() == 31);
        // THEN META first, then the 30 projects in sort-key order: ULIDs, so the newest last
        List<WebElement> rows = rows();
        assertThat(rows.get(0).getAttribute("data-sort")).isEqualTo("META");
        assertThat(rows.get(0).getAttribute("data-kind")).isEqualTo("workspace");
        List<String> sorts = rows.subList(1, 31).stream()
                .map(r -> r.getAttribute("data-sort"))
                .toList();
        assertThat(sorts)
                .containsExactlyElementsOf(
                        projects.stream().map(id -> "PROJ#" + id).toList());
        assertThat(rows.get(30).findElements(By.tagName("td")).get(0).getText()).isEqualTo("PROJ#" + projects.get(29));
        // AND each project row shows the creation time its ULID carries (on its key), and the workspace row none
        assertThat(rows.get(1).findElements(By.tagName("td")).get(0).getAttribute("title"))
                .matches("(?s).*\\ncreated \\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(rows.get(0).findElements(By.tagName("td")).get(0).getAttribute("title"))
                .doesNotContain("created");
    }

    @Test
    @Order(2)
    void listProjects_shouldBeLoggedWithItsQuery_andTotalsEqualToTheHeaders() throws Exception {
        // WHEN a page of projects is read through the API
        HttpResponse<String> response =
                api.send("GET", "/workspaces/" + ws + "/projects?limit=10", null, List.of(ws), false);
        assertThat(response.statusCode()).isEqualTo(200);
        String calls = response.headers().firstValue("x-dynamo-calls").orElseThrow();
        String capacity = response.headers().firstValue("x-dynamo-capacity").orElseThrow();
        // THEN the log shows it with 1 call and the headers' capacity
        WebElement entry = newestRequest("GET", "/workspaces/" + ws + "/projects");
        assertThat(calls).isEqualTo("1");
        assertThat(entry.findElement(By.cssSelector(".cost")).getText()).isEqualTo("1 call · " + capacity + " CU");
        entry.click();
        WebElement detail = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("request-detail")));
        assertThat(detail.getText())
                .contains("X-Dynamo-Calls 1 · X-Dynamo-Capacity " + capacity)
                .contains("log totals 1 call, " + capacity + " CU · they agree")
                .contains("Query oneread".replace("oneread", table))
                .contains("KeyConditionExpression #er = :er AND begins_with(#d, :p)")
                .contains("\":er\":{\"S\":\"WS#" + ws + "\"}")
                .contains("capacity " + capacity);
        assertThat(browser.findElements(By.cssSelector("#collection tbody tr.touched")))
                .hasSize(31);
        screenshot("console-collection-and-log");
    }

    @Test
    @Order(3)
    void patch_shouldShowItsDiff() throws Exception {
        // WHEN a project is renamed
        String id = projects.get(3);
        String path = "/workspaces/" + ws + "/projects/" + id;
        HttpResponse<String> response =
                api.send("PATCH", path, "{\"name\":\"renamed\"}", List.of(ws), false, "If-Match", "\"1\"");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        // THEN its log entry shows the item before and after: name and version changed
        newestRequest("PATCH", path).click();
        WebElement diff = wait.until(d -> d.findElement(By.cssSelector("#request-detail .diff")));
        assertThat(diff.getText()).contains("UpdateItem WS#" + ws + " / PROJ#" + id);
        WebElement name = diff.findElements(By.cssSelector("tr.diff-changed")).stream()
                .filter(tr -> tr.findElement(By.tagName("td")).getText().equals("name"))
                .findFirst()
                .orElseThrow();
        assertThat(name.getText()).contains("{\"S\":\"project 3\"}").contains("{\"S\":\"renamed\"}");
        assertThat(diff.findElements(By.cssSelector("tr.diff-changed")).stream()
                        .map(tr -> tr.findElement(By.tagName("td")).getText()))
                .contains("name", "version", "updatedAt");
        // AND the open collection updated by itself
        wait.until(d -> rows().stream()
                .anyMatch(r -> r.getAttribute("data-sort").equals("PROJ#" + id)
                        && r.getText().contains("renamed")));
    }

    @Test
    @Order(4)
    void hotTenant_shouldBeOneTenantWith10Shards() throws Exception {
        WebElement tenant =
                wait.until(d -> d.findElement(By.cssSelector("#partitions li.tenant[data-tenant='" + hot + "']")));
        assertThat(tenant.getAttribute("data-shards")).isEqualTo("10");
        openTenant(hot);
        wait.until(d -> rows().size() == 101);
        assertThat(rows().get(0).getAttribute("data-sort")).isEqualTo("META");
        assertThat(rows().stream().map(r -> r.getAttribute("data-partition")).distinct())
                .hasSize(11); // WS#hot for META, and its 10 shards
        // The pane re-renders when the table changes: opening and reading are one step, retried on a stale element
        List<String> shards = wait.ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    WebElement listed =
                            d.findElement(By.cssSelector("#partitions li.tenant[data-tenant='" + hot + "']"));
                    WebElement details = listed.findElement(By.tagName("details"));
                    if (details.getAttribute("open") == null) {
                        details.findElement(By.tagName("summary")).click();
                    }
                    return listed.findElements(By.cssSelector(".shard[data-shard]")).stream()
                            .map(WebElement::getText)
                            .toList();
                });
        assertThat(shards).contains("#01", "#10").hasSize(11);
        // AND the secondary index's partitions are a group of their own: 130 ACTIVE projects over its 8 shards
        WebElement active = wait.until(
                d -> d.findElement(By.cssSelector("#index-partitions li.index-key[data-key='STATUS#ACTIVE']")));
        assertThat(active.getText()).contains("STATUS#ACTIVE 130 entries · 8 shards");
        assertThat(browser.findElement(By.cssSelector("#index-partitions li.index-key[data-key='WSREG']"))
                        .getText())
                .contains("2 entries");
        screenshot("console-hot-tenant");
    }

    @Test
    @Order(5)
    void builder_shouldPrintTheExprLines_andRunThem() throws Exception {
        browser.findElement(By.id("pattern")).sendKeys("key condition");
        browser.findElement(By.id("partition")).sendKeys("WS#" + ws);
        browser.findElement(By.id("operator")).sendKeys("begins_with");
        browser.findElement(By.id("sort-value")).sendKeys("PROJ#");
        WebElement limit = browser.findElement(By.id("limit"));
        limit.clear();
        limit.sendKeys("100");
        browser.findElement(By.id("build")).click();
        // THEN the three lines expr prints for WS#<ws> / PROJ#
        wait.until(d -> !d.findElement(By.id("expr-expression")).getText().isEmpty());
        assertThat(browser.findElement(By.id("expr-expression")).getText().lines())
                .containsExactly(
                        "KeyConditionExpression     \"#er = :er AND begins_with(#d, :p)\"",
                        "ExpressionAttributeNames   { \"#er\": \"EntityRef\", \"#d\": \"Detail\" }",
                        "ExpressionAttributeValues  { \":er\": \"WS#" + ws + "\", \":p\": \"PROJ#\" }");
        // AND the snippets are for the engine the console reads, as `expr --endpoint-url` prints them
        assertThat(browser.findElement(By.id("expr-java")).getText())
                .contains("QueryRequest.builder()", ".endpointOverride(URI.create(\"" + engine.endpoint + "\"))");
        assertThat(browser.findElement(By.id("expr-cli")).getText())
                .startsWith("AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws dynamodb query")
                .contains("--endpoint-url " + engine.endpoint + " \\", "--region us-east-1");
        // WHEN the toggle asks for the deployed table THEN they are today's, with no endpoint
        browser.findElement(By.id("deployed")).click();
        wait.until(d -> d.findElement(By.id("expr-cli")).getText().startsWith("aws dynamodb query"));
        assertThat(browser.findElement(By.id("expr-cli")).getText()).doesNotContain("--endpoint-url");
        assertThat(browser.findElement(By.id("expr-java")).getText())
                .contains("// dynamoDb: your DynamoDbClient")
                .doesNotContain("endpointOverride");
        // WHEN it runs
        browser.findElement(By.id("run")).click();
        WebElement result = wait.until(d -> d.findElement(By.cssSelector("#run-result .capacity")));
        // THEN the 30 projects, and the capacity consumed equal to the capacity predicted from item sizes
        assertThat(browser.findElements(By.cssSelector("#run-result tbody tr"))).hasSize(30);
        String text = result.getText();
        String consumed = text.replaceAll(".*consumed ([0-9.]+) RCU.*", "$1");
        String predicted = text.replaceAll(".*predicted ([0-9.]+) RCU.*", "$1");
        assertThat(text).startsWith("30 items returned, 30 read");
        assertThat(consumed).isEqualTo(predicted);
    }

    @Test
    @Order(6)
    void requestOverItsBudget_shouldBeFlagged() throws Exception {
        // GIVEN a workspace past the 4 KB a GetItem's budget assumes: two settings of 3,000 characters
        String big = Api.freshWorkspaceId("big");
        String settings = "{\"a\":\"" + "x".repeat(3000) + "\",\"b\":\"" + "y".repeat(3000) + "\"}";
        assertThat(api.send(
                                "POST",
                                "/workspaces",
                                "{\"id\":\"" + big + "\",\"name\":\"Big\",\"settings\":" + settings + "}",
                                List.of(),
                                true)
                        .statusCode())
                .isEqualTo(201);
        // WHEN it is read
        HttpResponse<String> response = api.send("GET", "/workspaces/" + big, null, List.of(big), false);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("x-dynamo-capacity")).hasValue("1");
        // THEN its log entry is flagged: 1 RCU against a budget of 0.5
        WebElement entry = newestRequest("GET", "/workspaces/" + big);
        assertThat(entry.getAttribute("class")).contains("over-budget");
        assertThat(entry.findElement(By.cssSelector(".flag")).getText())
                .isEqualTo("over budget: 1 capacity units, budget 0.5");
        screenshot("console-over-budget");
        // AND a read of an everyday workspace is not
        api.send("GET", "/workspaces/" + ws, null, List.of(ws), false);
        assertThat(newestRequest("GET", "/workspaces/" + ws).getAttribute("class"))
                .doesNotContain("over-budget");
    }

    @Test
    @Order(7)
    void exportThenImportIntoAnEmptyTable_shouldGiveBackTheSameItems() throws Exception {
        // GIVEN this table exported as a fixture file
        HttpResponse<String> exported = api.send("GET", "/_console/api/fixtures", null, List.of(), false);
        assertThat(exported.statusCode()).isEqualTo(200);
        Path file = SCREENSHOTS.resolve(table + "-fixtures.json").toAbsolutePath();
        Files.writeString(file, exported.body(), StandardCharsets.UTF_8);
        List<?> items = (List<?>) Json.readObject(exported.body()).get("Items");
        assertThat(items).hasSizeGreaterThan(100);
        // WHEN a console on an empty table imports it through its file input
        try (LocalApi empty = LocalApi.start(engine, table + "-copy", Map.of("HotTenantShards", hot + "=10"))) {
            browser.get(empty.uri("/_console").toString());
            wait.until(d -> d.findElement(By.id("status")).getText().equals("live"));
            browser.findElement(By.id("import-fixtures")).sendKeys(file.toString());
            new WebDriverWait(browser, Eventually.FAILSAFE)
                    .until(d -> d.findElement(By.id("status")).getText().startsWith("imported"));
            assertThat(browser.findElement(By.id("status")).getText())
                    .isEqualTo("imported " + items.size() + " of " + items.size() + ", skipped 0");
            // THEN its export is the same file, item for item
            HttpResponse<String> copy = empty.send("GET", "/_console/api/fixtures", null, List.of(), false);
            assertThat(Json.readObject(copy.body())).isEqualTo(Json.readObject(exported.body()));
            // AND importing it again writes nothing: every item is skipped as existing
            browser.findElement(By.id("import-fixtures")).sendKeys(file.toString());
            new WebDriverWait(browser, Eventually.FAILSAFE)
                    .until(d -> d.findElement(By.id("status")).getText().endsWith("skipped " + items.size()));
        } finally {
            browser.get(api.uri("/_console").toString());
        }
    }

    @Test
    @Order(8)
    void dataIsShownAsText_withInvisibleCharactersVisible() throws Exception {
        // GIVEN an item the API would refuse: markup and a right-to-left override in its name. An import refuses it
        String sort = "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7X1";
        String fixture = "{\"Items\":[{\"EntityRef\":{\"S\":\"WS#" + ws + "\"},\"Detail\":{\"S\":\"" + sort
                + "\"},\"name\":{\"S\":\"<img src=x onerror=\\\"document.title='pwned'\\\">\\u202Egnp.exe\"}}]}";
        HttpResponse<String> imported = api.send(
                "POST", "/_console/api/fixtures", fixture, List.of(), false, "Content-Type", "application/json");
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(422);
        // AND so it is written by hand, as on AWS, through the engine's own client; the console rescans
        engine.client.putItem(b -> b.tableName(table)
                .item(dev.oneread.store.items.DynamoJson.toItem(
                        ((List<?>) Json.readObject(fixture).get("Items")).get(0))));
        assertThat(api.send("POST", "/_console/api/rescan", null, List.of(), false)
                        .statusCode())
                .isEqualTo(200);
        // WHEN its collection is shown
        openTenant(ws);
        WebElement row = wait.until(d -> d.findElements(By.cssSelector("#collection tbody tr")).stream()
                .filter(r -> sort.equals(r.getAttribute("data-sort")))
                .findFirst()
                .orElse(null));
        // THEN the markup is text, and the override is shown as an escape instead of reversing what follows
        assertThat(row.getText()).contains("<img src=x onerror=").contains("\\u202Egnp.exe");
        assertThat(browser.findElements(By.cssSelector("#collection img"))).isEmpty();
        assertThat(browser.getTitle()).isEqualTo("oneread console");
    }

    @Test
    @Order(9)
    void sparseTenant_shouldShowThePlannedShards_andHowManyHoldData() throws Exception {
        // GIVEN a tenant the plan gives 10 shards, with one project: data in one shard
        api.send("POST", "/workspaces", "{\"id\":\"" + sparse + "\",\"name\":\"Sparse\"}", List.of(), true);
        create(sparse, "{\"name\":\"only\"}");
        // WHEN it is listed THEN its count is the plan's, with how many hold data, each count in the singular
        // (read in the page in one go: the list re-renders whenever partitions change, so an element can go stale)
        String selector = "#partitions li.tenant[data-tenant='" + sparse + "']";
        wait.until(
                d -> (Boolean) browser.executeScript("return document.querySelector(arguments[0]) != null;", selector));
        assertThat(browser.executeScript("return document.querySelector(arguments[0]).dataset.shards;", selector))
                .isEqualTo("10");
        assertThat((String) browser.executeScript("return document.querySelector(arguments[0]).innerText;", selector))
                .contains("10 shards · 1 holds data");
        @SuppressWarnings("unchecked")
        List<String> shards = (List<String>) browser.executeScript(
                "const t = document.querySelector(arguments[0]); t.querySelector('details').open = true;"
                        + " return [...t.querySelectorAll('.shards li')].map((li) => li.innerText);",
                selector);
        assertThat(shards).anyMatch(t -> t.matches("#\\d\\d 1 item · .*"));
    }

    @Test
    @Order(10)
    void page_shouldHaveAFavicon_copyFeedback_andLiveBackAfterAnError() throws Exception {
        // GIVEN the page's icon: its own file, served (no 404 on load)
        String icon = browser.findElement(By.cssSelector("link[rel='icon']")).getAttribute("href");
        assertThat(api.send("GET", URI.create(icon).getPath(), null, List.of(), false)
                        .statusCode())
                .isEqualTo(200);
        // WHEN a snippet is copied THEN its button says so
        browser.findElement(By.id("pattern")).sendKeys("key condition");
        browser.findElement(By.id("partition")).sendKeys("WS#" + ws);
        browser.findElement(By.id("build")).click();
        wait.until(d -> !d.findElement(By.id("expr-cli")).getText().isEmpty());
        WebElement copy = browser.findElement(By.cssSelector("button.copy[data-copy='expr-cli']"));
        copy.click();
        wait.until(d -> copy.getText().startsWith("copied") || copy.getText().equals("copy failed"));
        // WHEN an action fails THEN the error shows, and "live" comes back on its own
        Path bad = SCREENSHOTS.resolve(table + "-not-json.json").toAbsolutePath();
        Files.writeString(bad, "not json", StandardCharsets.UTF_8);
        browser.findElement(By.id("import-fixtures")).sendKeys(bad.toString());
        wait.until(d -> d.findElement(By.id("status")).getText().startsWith("error"));
        new WebDriverWait(browser, Eventually.FAILSAFE)
                .until(d -> d.findElement(By.id("status")).getText().equals("live"));
    }

    @Test
    @Order(11)
    void logFilters_shouldShowOnlyTheRoute_statusClass_andTenantChosen() throws Exception {
        // GIVEN a 400 with its problem (not a project id), and a 200 of another tenant
        String missing = "/workspaces/" + ws + "/projects/no-such-project";
        assertThat(api.send("GET", missing, null, List.of(ws), false).statusCode())
                .isEqualTo(400);
        assertThat(api.send("GET", "/workspaces/" + hot, null, List.of(hot), false)
                        .statusCode())
                .isEqualTo(200);
        WebElement notFound = newestRequest("GET", missing);
        assertThat(notFound.findElement(By.cssSelector(".problem")).getText()).isNotBlank();
        // WHEN only 4xx are asked for
        select("log-status", "4");
        // THEN every row shown is a 4xx, the 400 among them
        assertThat(shownRows())
                .isNotEmpty()
                .allSatisfy(
                        li -> assertThat(li.getAttribute("data-status-class")).isEqualTo("4"));
        assertThat(notFound.isDisplayed()).isTrue();
        // WHEN all statuses of the hot tenant only are asked for
        select("log-status", "");
        browser.findElement(By.id("log-tenant")).sendKeys(hot);
        // THEN only its requests are shown
        assertThat(shownRows())
                .isNotEmpty()
                .allSatisfy(li -> assertThat(li.getAttribute("data-workspace")).isEqualTo(hot));
        // WHEN any tenant's GetProject route is asked for
        browser.findElement(By.id("log-tenant")).clear();
        browser.executeScript("document.getElementById('log-tenant').dispatchEvent(new Event('input'))");
        select("log-route", "GET /workspaces/{workspaceId}/projects/{projectId}");
        // THEN only that route's requests are shown, the 400 among them
        assertThat(shownRows())
                .isNotEmpty()
                .allSatisfy(li -> assertThat(li.getAttribute("data-route"))
                        .isEqualTo("GET /workspaces/{workspaceId}/projects/{projectId}"));
        assertThat(notFound.isDisplayed()).isTrue();
        select("log-route", "");
    }

    private void select(String id, String value) {
        wait.until(d -> (Boolean) browser.executeScript(
                "const s = document.getElementById(arguments[0]);"
                        + " if (![...s.options].some((o) => o.value === arguments[1])) return false;"
                        + " s.value = arguments[1]; s.dispatchEvent(new Event('change')); return true;",
                id,
                value));
    }

    private List<WebElement> shownRows() {
        return browser.findElements(By.cssSelector("#requests li.request")).stream()
                .filter(WebElement::isDisplayed)
                .toList();
    }

    @Test
    @Order(12)
    void writeToAnotherWorkspace_shouldNotReloadTheOpenCollection() throws Exception {
        // GIVEN the workspace's collection open, and the page's collection fetches counted from here on
        openTenant(ws);
        // Counted from a point in the page's clock: the opening's own fetch may still be in flight here, and its
        // entry, recorded when it ends, started before this point.
        browser.executeScript("performance.setResourceTimingBufferSize(100000); window.__from = performance.now();");
        // WHEN a project is created in the hot workspace, then one in the open workspace
        create(hot, "{\"name\":\"elsewhere\"}");
        String mine = create(ws, "{\"name\":\"here\"}");
        // THEN the open collection shows its own new project, events arriving in order
        // (checked in the page: the rows re-render on each reload, so a found element can go stale)
        wait.until(d -> (Boolean) browser.executeScript(
                "return document.querySelector(`#collection tbody tr[data-sort='PROJ#${arguments[0]}']`) != null;",
                mine));
        // AND it was fetched not at all: its own write came with the event, the other workspace's reloaded nothing
        Object fetches = browser.executeScript(
                "return performance.getEntriesByType('resource')"
                        + ".filter((e) => e.name.includes('/_console/api/collection?') && e.startTime >= window.__from).length;");
        assertThat(fetches).isEqualTo(0L);
    }
}
