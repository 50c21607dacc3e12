package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleItems;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The console's table tools in a real browser, as a person uses them: an item loaded, edited, duplicated and deleted
 * in the page, a filtered scan, an index partition opened from the left pane, a query saved and run again. After
 * each, the engine is read with the test's own client, and the request log holds the action with its calls; each
 * write the API would refuse is refused in the page, with a 4xx that names why, and changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
class ConsoleToolsBrowserTest {
    private static final String LOG = "/_console/api/";

    private final TestEngine engine = TestEngine.get();
    private final String table = "tools-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("tools");
    private final List<String> projects = new ArrayList<>();
    private String idempotencySort;
    private LocalApi api;
    private ConsolePage page;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table);
        api = page.api();
        // GIVEN a workspace with five projects made through the API, one of them with an Idempotency-Key (which
        // leaves an idempotency record in the workspace's partition)
        ConsolePage.createWorkspace(api, ws, "Tools");
        for (int i = 0; i < 4; i++) {
            projects.add(create("{\"name\":\"project " + i + "\"}"));
        }
        HttpResponse<String> keyed =
                api.createProject(ws, "{\"name\":\"keyed\"}", "Idempotency-Key", "tools-" + UUID.randomUUID());
        assertThat(keyed.statusCode()).isEqualTo(201);
        idempotencySort = partitionItems().stream()
                .map(i -> i.get("Detail").s())
                .filter(s -> s.startsWith("IDEM#"))
                .findFirst()
                .orElseThrow();
        page.open();
        browser = page.browser();
        wait = page.waiter();
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close(); // the browser first (its event stream is a request start-api would wait for), then start-api
        }
    }

    // ---- Item: edit, duplicate, delete ------------------------------------------------------------------------

    @Test
    void edit_shouldWriteTheChange_atTheNextVersion_andLogItsPutItemWithTheDiff() throws Exception {
        // GIVEN project 0 loaded in the item editor
        String sort = "PROJ#" + projects.get(0);
        load(partition(), sort);
        assertThat(field("item-version")).isEqualTo("1");
        // WHEN its name is changed in the attributes and saved
        editAttributes("a.name = {S: 'renamed in the console'};");
        String result = act("item-save");
        // THEN it is written at version 2, with the new name and its index entry as the API keeps it
        assertThat(result).contains("saved").contains("version 2");
        Map<String, AttributeValue> item = item(partition(), sort);
        assertThat(item.get("name").s()).isEqualTo("renamed in the console");
        assertThat(item.get("version").n()).isEqualTo("2");
        assertThat(item.get("GSI1PK").s()).startsWith("STATUS#ACTIVE#");
        // AND the log has the action: its workspace read (is it moving?), one PutItem, and a diff of the name
        Map<String, Object> entry = logEntry("item/edit", 200);
        assertThat(entry.get("source")).isEqualTo("console");
        assertThat(operations(entry)).containsExactly("GetItem", "PutItem");
        Map<String, Object> write = writes(entry).get(0);
        assertThat(attribute(write, "before", "name")).isEqualTo("project 0");
        assertThat(attribute(write, "after", "name")).isEqualTo("renamed in the console");
        assertThat(shownInLog("item/edit", "200")).isTrue();
    }

    @Test
    void edit_toAStatusTheApiDoesNotHave_shouldBe422_andChangeNothing() throws Exception {
        // GIVEN project 1 loaded
        String sort = "PROJ#" + projects.get(1);
        load(partition(), sort);
        Map<String, AttributeValue> before = item(partition(), sort);
        // WHEN its status is set to one the API does not have, and saved
        editAttributes("a.status = {S: 'BOGUS'};");
        String result = act("item-save");
        // THEN it is refused with a 422 naming the status, and the item is as it was
        assertThat(status()).isEqualTo("422");
        assertThat(result).contains("status");
        assertThat(item(partition(), sort)).isEqualTo(before);
        // AND the refusal is in the log, with its reason and no call
        Map<String, Object> entry = logEntry("item/edit", 422);
        assertThat(operations(entry)).isEmpty();
        assertThat(String.valueOf(((Map<?, ?>) entry.get("problem")).get("detail")))
                .contains("status");
    }

    @Test
    void edit_andDelete_atAStaleVersion_shouldBe409_andChangeNothing() throws Exception {
        // GIVEN project 2 loaded at version 1, then changed through the API (now version 2)
        String sort = "PROJ#" + projects.get(2);
        load(partition(), sort);
        HttpResponse<String> patched = api.send(
                "PATCH",
                "/workspaces/" + ws + "/projects/" + projects.get(2),
                "{\"name\":\"changed meanwhile\"}",
                List.of(ws),
                false,
                "If-Match",
                "\"1\"");
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        Map<String, AttributeValue> current = item(partition(), sort);
        // WHEN the edit is saved at the version read
        editAttributes("a.name = {S: 'late edit'};");
        String edited = act("item-save");
        // THEN a 409, and the API's change stands
        assertThat(status()).isEqualTo("409");
        assertThat(edited).contains("version 1");
        assertThat(item(partition(), sort)).isEqualTo(current);
        assertThat(operations(logEntry("item/edit", 409))).containsExactly("GetItem", "PutItem");
        // WHEN it is deleted at the version read
        browser.findElement(By.id("item-delete")).click();
        act("item-delete");
        // THEN a 409 too, and the project is still there
        assertThat(status()).isEqualTo("409");
        assertThat(item(partition(), sort)).isEqualTo(current);
        assertThat(operations(logEntry("item/delete", 409))).containsExactly("GetItem", "DeleteItem");
    }

    @Test
    void duplicate_shouldCreateTheProjectAgain_underANewUlid_atVersion1() throws Exception {
        // GIVEN project 3 loaded
        String sort = "PROJ#" + projects.get(3);
        load(partition(), sort);
        Map<String, AttributeValue> original = item(partition(), sort);
        // WHEN duplicated
        String result = act("item-duplicate");
        // THEN a new project in the same partition, a new id, at version 1, with the original's name and status
        assertThat(status()).isEqualTo("200");
        String copySort = result.substring(result.lastIndexOf(" / ") + 3);
        assertThat(copySort).matches("PROJ#[0-9A-HJKMNP-TV-Z]{26}").isNotEqualTo(sort);
        Map<String, AttributeValue> copy = item(partition(), copySort);
        assertThat(copy.get("name")).isEqualTo(original.get("name"));
        assertThat(copy.get("status")).isEqualTo(original.get("status"));
        assertThat(copy.get("version").n()).isEqualTo("1");
        assertThat(copy.get("GSI1SK").s()).isEqualTo(copySort);
        assertThat(item(partition(), sort)).isEqualTo(original);
        // AND the log: the project read, its workspace read, the create's PutItem, and the new item as its diff
        Map<String, Object> entry = logEntry("item/duplicate", 200);
        assertThat(operations(entry)).containsExactly("GetItem", "GetItem", "PutItem");
        assertThat(writes(entry).get(0).get("sort")).isEqualTo(copySort);
        assertThat(writes(entry).get(0).get("before")).isNull();
    }

    @Test
    void duplicate_ofAWorkspaceOrAnIdempotencyRecord_shouldBe422_andWriteNothing() throws Exception {
        for (String sort : List.of("META", idempotencySort)) {
            // GIVEN the partition's items
            List<Map<String, AttributeValue>> before = partitionItems();
            // WHEN the workspace's META, then the idempotency record, is duplicated
            load(partition(), sort);
            String result = act("item-duplicate");
            // THEN a 422 that says what it is, and no item more
            assertThat(status()).as(sort).isEqualTo("422");
            assertThat(result).contains(sort.equals("META") ? "workspace" : "idempotency record");
            assertThat(partitionItems()).isEqualTo(before);
        }
    }

    @Test
    void delete_shouldRemoveTheProject_afterAConfirmingClick_andLogItsDeleteItem() throws Exception {
        // GIVEN a project of its own, loaded
        String id = create("{\"name\":\"to delete\"}");
        String sort = "PROJ#" + id;
        load(partition(), sort);
        // WHEN Delete is clicked, which asks once more on the button, and clicked again
        browser.findElement(By.id("item-delete")).click();
        assertThat(browser.findElement(By.id("item-delete")).getText()).isEqualTo("Confirm delete");
        assertThat(item(partition(), sort)).isNotEmpty();
        String result = act("item-delete");
        // THEN the project is gone, and the log has the workspace's read and the DeleteItem, the item as its "before"
        assertThat(result).contains("deleted");
        assertThat(item(partition(), sort)).isEmpty();
        Map<String, Object> entry = logEntry("item/delete", 200);
        assertThat(operations(entry)).containsExactly("GetItem", "DeleteItem");
        assertThat(attribute(writes(entry).get(0), "before", "name")).isEqualTo("to delete");
        assertThat(writes(entry).get(0).get("after")).isNull();
    }

    @Test
    void delete_ofAWorkspaceMeta_shouldBe422_andLeaveIt() throws Exception {
        load(partition(), "META");
        Map<String, AttributeValue> before = item(partition(), "META");
        browser.findElement(By.id("item-delete")).click();
        String result = act("item-delete");
        assertThat(status()).isEqualTo("422");
        assertThat(result).contains("DELETE /workspaces/{id}");
        assertThat(item(partition(), "META")).isEqualTo(before);
    }

    // ---- Scan and query ---------------------------------------------------------------------------------------

    @Test
    void filteredScan_shouldReturnTheMatchingItems_projected_withCountsAndCapacity() throws Exception {
        // GIVEN the form set to a Scan of the table, filtered on a name, projecting name and status
        resetReadForm();
        new Select(browser.findElement(By.id("read-mode"))).selectByValue("scan");
        assertThat(browser.findElement(By.id("scan-warning")).isDisplayed()).isTrue();
        addFilter("name", "=", "project 1", "S");
        type("read-projection", "EntityRef, Detail, name, status");
        type("read-limit", "1000");
        // WHEN run
        run();
        // THEN the one project of that name, as many as the engine holds, with Count, ScannedCount and capacity
        long expected = engine
                .client
                .scan(ScanRequest.builder().tableName(table).build())
                .items()
                .stream()
                .filter(i -> i.containsKey("name") && i.get("name").s().equals("project 1"))
                .count();
        assertThat(expected).isEqualTo(1);
        WebElement summary = browser.findElement(By.id("read-summary"));
        assertThat(summary.getAttribute("data-count")).isEqualTo(String.valueOf(expected));
        assertThat(Integer.parseInt(summary.getAttribute("data-scanned-count"))).isGreaterThan(1);
        assertThat(summary.getAttribute("data-consumed")).isNotEmpty();
        List<WebElement> rows = browser.findElements(By.cssSelector("#read-items tbody tr"));
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).getAttribute("data-sort")).isEqualTo("PROJ#" + projects.get(1));
        assertThat(rows.get(0).getText()).contains("project 1").doesNotContain("version");
        // AND the expression the console wrote, placeholders and all
        assertThat(browser.findElement(By.id("read-expressions")).getText())
                .contains("FilterExpression #n = :n")
                .contains("ProjectionExpression #er, #d, #n, #s");
    }

    @Test
    void queryFilteringOnItsOwnKeyAttribute_shouldBe400_namingIt() throws Exception {
        // GIVEN a Query of the workspace's partition with a filter on Detail, its own sort key
        resetReadForm();
        type("read-partition", partition());
        addFilter("Detail", "begins_with", "PROJ#", "S");
        List<Map<String, AttributeValue>> before = partitionItems();
        // WHEN run
        browser.findElement(By.id("read-run")).click();
        // THEN a 400 naming the key attribute, and the table as it was
        WebElement error = wait.until(d -> {
            WebElement e = d.findElement(By.id("read-error"));
            return e.isDisplayed() ? e : null;
        });
        assertThat(error.getAttribute("data-status")).isEqualTo("400");
        assertThat(error.getText()).contains("Detail is a key attribute");
        assertThat(partitionItems()).isEqualTo(before);
    }

    @Test
    void openShardList_shouldStayOpenWhenTheListIsRendered() {
        // GIVEN the index key STATUS#ACTIVE with its shard list opened by the user
        // (another test may have opened it already: it stays open, that is the point)
        WebElement key = wait.until(d -> indexKey(d, "STATUS#ACTIVE"));
        if (key.findElement(By.tagName("details")).getAttribute("open") == null) {
            key.findElement(By.tagName("summary")).click();
        }
        assertThat(key.findElement(By.tagName("details")).getAttribute("open")).isNotNull();
        // WHEN the left pane renders again (the filter's input event re-reads the partitions, as a write does)
        browser.findElement(By.id("filter")).sendKeys(" ");
        wait.until(ExpectedConditions.stalenessOf(key));
        // THEN the rendered key's shard list is still open: a refresh never folds what the user opened
        WebElement rendered = wait.until(d -> indexKey(d, "STATUS#ACTIVE"));
        assertThat(rendered.findElement(By.tagName("details")).getAttribute("open"))
                .isNotNull();
        browser.findElement(By.id("filter")).clear();
    }

    private static WebElement indexKey(WebDriver d, String key) {
        return d.findElements(By.cssSelector("#index-partitions li.index-key")).stream()
                .filter(li -> key.equals(li.getAttribute("data-key")))
                .findFirst()
                .orElse(null);
    }

    @Test
    void indexPartitionInTheLeftPane_shouldOpenAsAQueryOfGsi1() throws Exception {
        // GIVEN the left pane's Index GSI1 list, with its shards shown
        resetReadForm();
        // The list re-renders when the table changes: finding, opening and clicking are one step, retried on a stale
        // element (a click that throws never happened, so the step runs once to its end).
        clearSummary();
        String indexPartition = wait.ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    WebElement key = indexKey(d, "STATUS#ACTIVE");
                    if (key == null) return null;
                    WebElement details = key.findElement(By.tagName("details"));
                    if (details.getAttribute("open") == null)
                        details.findElement(By.tagName("summary")).click();
                    WebElement shard = key.findElement(By.cssSelector("button.index-partition"));
                    String partition = shard.getAttribute("data-partition");
                    // WHEN one of its partitions is clicked
                    shard.click();
                    return partition;
                });
        // THEN the form is a Query of GSI1 on it, and it ran: as many items as the engine's own query returns
        wait.until(d -> d.findElement(By.id("read-summary")).getText().startsWith("Query on GSI1"));
        assertThat(new Select(browser.findElement(By.id("read-target")))
                        .getFirstSelectedOption()
                        .getAttribute("value"))
                .isEqualTo("GSI1");
        assertThat(field("read-partition")).isEqualTo(indexPartition);
        int expected = engine.client
                .query(QueryRequest.builder()
                        .tableName(table)
                        .indexName("GSI1")
                        .keyConditionExpression("GSI1PK = :p")
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(indexPartition)))
                        .build())
                .count();
        assertThat(expected).isPositive();
        assertThat(browser.findElement(By.id("read-summary")).getAttribute("data-count"))
                .isEqualTo(String.valueOf(expected));
        assertThat(browser.findElements(By.cssSelector("#read-items tbody tr"))).hasSize(expected);
    }

    @Test
    void savedQuery_shouldBeKeptByName_runAgainFromTheList_andDeleted() throws Exception {
        // GIVEN a Query of the workspace's projects filtered on ACTIVE, saved under a name
        resetReadForm();
        type("read-partition", partition());
        new Select(browser.findElement(By.id("read-sort-operator"))).selectByValue("BEGINS_WITH");
        type("read-sort-value", "PROJ#");
        addFilter("status", "=", "ACTIVE", "S");
        type("query-name", "active projects");
        browser.findElement(By.id("query-save")).click();
        WebElement saved = wait.until(
                d -> d.findElements(By.cssSelector("#saved-queries li[data-name='active projects']")).stream()
                        .findFirst()
                        .orElse(null));
        assertThat(savedNames()).contains("active projects");
        // WHEN the form is changed, and the saved query is run from the list
        resetReadForm();
        new Select(browser.findElement(By.id("read-mode"))).selectByValue("scan");
        clearSummary();
        saved.findElement(By.cssSelector(".query-run")).click();
        // THEN it ran as saved: the workspace's active projects, as many as the engine holds
        wait.until(d -> d.findElement(By.id("read-summary")).getText().startsWith("Query ·"));
        long active = partitionItems().stream()
                .filter(i -> i.get("Detail").s().startsWith("PROJ#"))
                .filter(i -> i.containsKey("status") && i.get("status").s().equals("ACTIVE"))
                .count();
        assertThat(browser.findElement(By.id("read-summary")).getAttribute("data-count"))
                .isEqualTo(String.valueOf(active));
        assertThat(field("read-partition")).isEqualTo(partition());
        // AND it is first among the recent queries
        wait.until(d -> {
            List<WebElement> recent = d.findElements(By.cssSelector("#recent-queries li .query-text"));
            return !recent.isEmpty()
                    && recent.get(0).getText().contains("Query table " + partition())
                    && recent.get(0).getText().contains("status = ACTIVE");
        });
        // WHEN a name the console refuses is used
        type("query-name", "../etc/passwd");
        browser.findElement(By.id("query-save")).click();
        // THEN a 400, and nothing saved under it
        wait.until(d -> d.findElement(By.id("read-error")).isDisplayed());
        assertThat(browser.findElement(By.id("read-error")).getText()).contains("name");
        assertThat(savedNames()).containsExactly("active projects");
        // WHEN the saved query is deleted
        wait.until(d -> d.findElement(By.cssSelector("#saved-queries li[data-name='active projects'] .query-delete")))
                .click();
        // THEN it is gone from the list and from the console's keeping
        wait.until(d ->
                d.findElements(By.cssSelector("#saved-queries li[data-name]")).isEmpty());
        assertThat(savedNames()).isEmpty();
    }

    // ---- Helpers ----------------------------------------------------------------------------------------------

    private String partition() {
        return "WS#" + ws;
    }

    private String create(String body) throws Exception {
        HttpResponse<String> response = api.createProject(ws, body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return (String) Json.readObject(response.body()).get("id");
    }

    /** The item as the engine holds it now, read with the test's own client; empty when there is none. */
    private Map<String, AttributeValue> item(String partition, String sort) {
        return ConsoleItems.item(engine, table, partition, sort);
    }

    private List<Map<String, AttributeValue>> partitionItems() {
        return engine.client
                .query(QueryRequest.builder()
                        .tableName(table)
                        .consistentRead(true)
                        .keyConditionExpression("EntityRef = :p")
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(partition())))
                        .build())
                .items();
    }

    private String field(String id) {
        return browser.findElement(By.id(id)).getAttribute("value");
    }

    private void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    /** Loads an item into the editor by its key, as a person types it. */
    private void load(String partition, String sort) {
        type("item-partition", partition);
        type("item-sort", sort);
        act("item-load");
        assertThat(status())
                .as(browser.findElement(By.id("item-result")).getText())
                .isEqualTo("200");
    }

    /** Changes the editor's attributes with a line of script on {@code a}, the parsed JSON, as an edit by hand. */
    private void editAttributes(String change) {
        browser.executeScript("const t = document.getElementById('item-attributes');"
                + " const a = JSON.parse(t.value); "
                + change
                + " t.value = JSON.stringify(a, null, 2);");
    }

    /** Clicks a button of the item editor and waits for its outcome; the outcome's text. */
    private String act(String button) {
        browser.executeScript(
                "const r = document.getElementById('item-result'); r.textContent = '';" + " delete r.dataset.status;");
        browser.findElement(By.id(button)).click();
        return wait.until(d -> {
            WebElement result = d.findElement(By.id("item-result"));
            return result.getAttribute("data-status") == null ? null : result.getText();
        });
    }

    private String status() {
        return browser.findElement(By.id("item-result")).getAttribute("data-status");
    }

    private void resetReadForm() {
        browser.executeScript("document.getElementById('read-filters').replaceChildren();"
                + " document.getElementById('read-error').hidden = true;");
        new Select(browser.findElement(By.id("read-target"))).selectByValue("table");
        new Select(browser.findElement(By.id("read-mode"))).selectByValue("query");
        new Select(browser.findElement(By.id("read-sort-operator"))).selectByValue("");
        for (String id : List.of("read-partition", "read-sort-value", "read-projection", "query-name")) {
            browser.findElement(By.id(id)).clear();
        }
    }

    private void addFilter(String attribute, String operator, String value, String type) {
        browser.findElement(By.id("read-add-filter")).click();
        List<WebElement> filters = browser.findElements(By.cssSelector("#read-filters li.filter"));
        WebElement filter = filters.get(filters.size() - 1);
        filter.findElement(By.cssSelector(".filter-attribute")).sendKeys(attribute);
        new Select(filter.findElement(By.cssSelector(".filter-operator"))).selectByValue(operator);
        filter.findElement(By.cssSelector(".filter-value")).sendKeys(value);
        new Select(filter.findElement(By.cssSelector(".filter-type"))).selectByValue(type);
    }

    private void clearSummary() {
        browser.executeScript("document.getElementById('read-summary').textContent = '';");
    }

    private void run() {
        clearSummary();
        browser.findElement(By.id("read-run")).click();
        wait.until(d -> !d.findElement(By.id("read-summary")).getText().isEmpty());
    }

    @SuppressWarnings("unchecked")
    private List<String> savedNames() throws Exception {
        Map<String, Object> queries = Json.readObject(
                api.send("GET", LOG + "queries", null, List.of(), false).body());
        return ((List<Map<String, Object>>) queries.get("saved"))
                .stream().map(q -> (String) q.get("name")).toList();
    }

    /** The newest log entry of a console action with this status, from the console's own log endpoint. */
    private Map<String, Object> logEntry(String action, int status) throws Exception {
        return ConsoleItems.logEntry(api, action, status);
    }

    private static List<String> operations(Map<String, Object> entry) {
        return ConsoleItems.operations(entry);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> writes(Map<String, Object> entry) {
        return (List<Map<String, Object>>) entry.get("writes");
    }

    @SuppressWarnings("unchecked")
    private static Object attribute(Map<String, Object> write, String side, String name) {
        Map<String, Object> item = (Map<String, Object>) write.get(side);
        return ((Map<String, Object>) item.get(name)).get("S");
    }

    /** True once the page's request log shows the action with this status, as it shows a served request. */
    private boolean shownInLog(String action, String status) {
        return wait.until(d -> d.findElements(By.cssSelector("#requests li.request")).stream()
                .anyMatch(li -> li.findElement(By.cssSelector(".path"))
                                .getText()
                                .equals(LOG + action)
                        && li.findElement(By.cssSelector(".status")).getText().equals(status)));
    }
}
