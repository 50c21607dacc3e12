package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Accessibility;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleItems;
import dev.oneread.tests.support.ConsolePage;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The side panel as an editor of the item it shows (issue 40, part 3): a row opened, its attributes edited in
 * DynamoDB JSON and saved at the version the panel showed, through the same checked endpoints as the Table tools'
 * item form (item/edit, item/duplicate, item/delete); a write from elsewhere while editing refused by the version
 * condition; every refusal in the panel in the server's words, with nothing changed; Escape closing the editor
 * without a write. After each, the engine is read with the test's own client and the console's log is read.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
class ConsolePanelEditorBrowserTest {
    private final TestEngine engine = TestEngine.get();
    private final String table = "panel-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("panel");
    private final List<String> projects = new ArrayList<>();
    private String idempotencySort;
    private ConsolePage page;
    private LocalApi api;
    private ChromeDriver browser;
    private WebDriverWait wait;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table);
        api = page.api();
        // GIVEN a workspace with six projects made through the API, one of them keyed (an idempotency record)
        ConsolePage.createWorkspace(api, ws, "Panel");
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> created = api.createProject(ws, "{\"name\":\"project " + i + "\"}");
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            projects.add((String) Json.readObject(created.body()).get("id"));
        }
        HttpResponse<String> keyed =
                api.createProject(ws, "{\"name\":\"keyed\"}", "Idempotency-Key", "panel-" + UUID.randomUUID());
        assertThat(keyed.statusCode()).isEqualTo(201);
        page.open();
        browser = page.browser();
        wait = page.waiter();
        page.openTenant(ws);
        wait.until(d -> !d.findElements(By.cssSelector("#collection tr.kind-idempotency"))
                .isEmpty());
        idempotencySort = browser.findElement(By.cssSelector("#collection tr.kind-idempotency"))
                .getAttribute("data-sort");
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void edit_shouldSaveAtTheNextVersion_andThePanelShouldShowIt() throws Exception {
        // GIVEN project 0's row opened, and the panel switched to its editor
        String sort = "PROJ#" + projects.get(0);
        openEditor(sort);
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("panel-attributes");
        Map<String, Object> shown = Json.readObject(field("panel-attributes"));
        assertThat(shown).doesNotContainKeys("EntityRef", "Detail").containsEntry("version", Map.of("N", "1"));
        // AND the editor passes axe-core as the rest of the page does: no serious or critical violation
        Accessibility.Report report = Accessibility.check(browser);
        assertThat(report.serious()).as("axe on the panel's editor").isEmpty();
        Files.createDirectories(ConsoleBrowserTest.SCREENSHOTS);
        Files.write(
                ConsoleBrowserTest.SCREENSHOTS.resolve("console-panel-editor.png"),
                browser.getScreenshotAs(OutputType.BYTES));
        // WHEN its name is changed and saved
        editAttributes("a.name = {S: 'renamed in the panel'};");
        String result = act("panel-save");
        // THEN written at version 2, and the panel is back to the item, at version 2 and with the new name
        assertThat(status()).isEqualTo("200");
        assertThat(result).contains("saved").contains("version 2");
        Map<String, AttributeValue> item = item(sort);
        assertThat(item.get("name").s()).isEqualTo("renamed in the panel");
        assertThat(item.get("version").n()).isEqualTo("2");
        wait.until(d -> "2".equals(d.findElement(By.id("panel-version")).getAttribute("data-version")));
        assertThat(browser.findElement(By.id("panel-editor")).isDisplayed()).isFalse();
        assertThat(Json.readObject(browser.findElement(By.id("item-dynamodb")).getText()))
                .containsEntry("name", Map.of("S", "renamed in the panel"));
        // AND the log has the edit: the workspace read and one PutItem, as the tools' item form makes
        Map<String, Object> entry = ConsoleItems.logEntry(api, "item/edit", 200);
        assertThat(ConsoleItems.operations(entry)).containsExactly("GetItem", "PutItem");
    }

    @Test
    void save_afterAWriteFromElsewhere_shouldBe409_andLeaveTheOtherWritersItem() throws Exception {
        // GIVEN project 1's editor open at version 1
        String sort = "PROJ#" + projects.get(1);
        openEditor(sort);
        // WHEN the project is changed through the API meanwhile (now version 2)
        HttpResponse<String> patched = api.send(
                "PATCH",
                "/workspaces/" + ws + "/projects/" + projects.get(1),
                "{\"name\":\"changed meanwhile\"}",
                List.of(ws),
                false,
                "If-Match",
                "\"1\"");
        assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
        Map<String, AttributeValue> other = item(sort);
        // THEN the editor says so once the change arrives, and keeps what was typed
        wait.until(d -> d.findElement(By.id("panel-stale")).isDisplayed());
        assertThat(browser.findElement(By.id("panel-stale")).getText()).contains("version 2");
        // WHEN the edit is saved at the version read
        editAttributes("a.name = {S: 'late edit'};");
        String result = act("panel-save");
        // THEN a 409 in the panel in the server's words, the editor still open, and the other writer's item stands
        assertThat(status()).isEqualTo("409");
        assertThat(result).contains("edit refused (409)").contains("not at version 1");
        assertThat(browser.findElement(By.id("panel-editor")).isDisplayed()).isTrue();
        assertThat(item(sort)).isEqualTo(other);
        assertThat(other.get("name").s()).isEqualTo("changed meanwhile");
        assertThat(ConsoleItems.operations(ConsoleItems.logEntry(api, "item/edit", 409)))
                .containsExactly("GetItem", "PutItem");
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
    }

    @Test
    void save_ofAChangedKey_badJson_orABookkeepingItem_shouldBeRefused_andChangeNothing() throws Exception {
        // GIVEN project 2's editor open
        String sort = "PROJ#" + projects.get(2);
        Map<String, AttributeValue> before = item(sort);
        openEditor(sort);
        // WHEN its sort key is written into the attributes THEN a 400 that names the key, and nothing written
        editAttributes("a.Detail = {S: 'PROJ#01ARZ3NDEKTSV4RRFFQ69G5FAV'};");
        assertThat(act("panel-save")).contains("Detail is the item's key");
        assertThat(status()).isEqualTo("400");
        assertThat(item(sort)).isEqualTo(before);
        // WHEN the attributes are not JSON THEN refused before any request, and nothing written
        browser.executeScript("document.getElementById('panel-attributes').value = '{\"name\": ';");
        assertThat(act("panel-save")).contains("not JSON");
        assertThat(status()).isEqualTo("400");
        assertThat(item(sort)).isEqualTo(before);
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        // WHEN the idempotency record is opened, edited and saved THEN a 422 that names it, and it is as it was
        Map<String, AttributeValue> record = item(idempotencySort);
        openEditor(idempotencySort);
        editAttributes("a.status = {S: 'forged'};");
        String refused = act("panel-save");
        assertThat(status()).isEqualTo("422");
        assertThat(refused).contains("edit refused (422)", "bookkeeping item (idempotency record)");
        assertThat(item(idempotencySort)).isEqualTo(record);
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
    }

    @Test
    void escape_shouldCloseTheEditorWithoutSaving_thenThePanel() throws Exception {
        // GIVEN project 3's editor open, its name changed in the text
        String sort = "PROJ#" + projects.get(3);
        Map<String, AttributeValue> before = item(sort);
        int edits = ConsoleItems.logEntries(api, "item/edit", 200).size();
        openEditor(sort);
        editAttributes("a.name = {S: 'never saved'};");
        // WHEN Escape is pressed in the text
        browser.findElement(By.id("panel-attributes")).sendKeys(Keys.ESCAPE);
        // THEN the editor is closed, the item shown as it is, the focus on Edit, and nothing was written
        assertThat(browser.findElement(By.id("panel-editor")).isDisplayed()).isFalse();
        assertThat(browser.findElement(By.id("item-panel")).isDisplayed()).isTrue();
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("panel-edit");
        assertThat(Json.readObject(browser.findElement(By.id("item-dynamodb")).getText()))
                .containsEntry("name", Map.of("S", "project 3"));
        assertThat(item(sort)).isEqualTo(before);
        assertThat(ConsoleItems.logEntries(api, "item/edit", 200)).hasSize(edits);
        // WHEN Escape is pressed again THEN the panel closes, and the focus is back on the rows
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        assertThat(browser.findElement(By.id("item-panel")).isDisplayed()).isFalse();
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("collection-scroll");
    }

    @Test
    void duplicate_fromThePanel_shouldCreateTheProjectAgain_underANewId() throws Exception {
        // GIVEN project 4's row opened
        String sort = "PROJ#" + projects.get(4);
        Map<String, AttributeValue> original = item(sort);
        openRow(sort);
        // WHEN Duplicate is pressed
        String result = act("panel-duplicate");
        // THEN a new project in the same partition, at version 1, with the original's name; the original as it was
        assertThat(status()).isEqualTo("200");
        String copySort = result.substring(result.lastIndexOf(" / ") + 3);
        assertThat(copySort).matches("PROJ#[0-9A-HJKMNP-TV-Z]{26}").isNotEqualTo(sort);
        Map<String, AttributeValue> copy = item(copySort);
        assertThat(copy.get("name")).isEqualTo(original.get("name"));
        assertThat(copy.get("version").n()).isEqualTo("1");
        assertThat(item(sort)).isEqualTo(original);
        assertThat(ConsoleItems.operations(ConsoleItems.logEntry(api, "item/duplicate", 200)))
                .containsExactly("GetItem", "GetItem", "PutItem");
        // AND a workspace's META is refused as the tools' form refuses it, with nothing written
        openRow("META");
        assertThat(act("panel-duplicate")).contains("workspace");
        assertThat(status()).isEqualTo("422");
    }

    @Test
    void delete_fromThePanel_shouldAskToConfirm_fromTheKeyboard_andRemoveTheProject() throws Exception {
        // GIVEN project 5's row opened
        String sort = "PROJ#" + projects.get(5);
        openRow(sort);
        // WHEN Enter is pressed on Delete THEN it asks, its confirm button focused, and nothing is deleted yet
        browser.findElement(By.id("panel-delete")).sendKeys(Keys.ENTER);
        wait.until(d -> d.findElement(By.id("panel-confirm")).isDisplayed());
        assertThat(browser.findElement(By.id("panel-confirm")).getText()).contains(sort, "version 1");
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("panel-delete-confirm");
        assertThat(item(sort)).isNotEmpty();
        // WHEN Escape THEN the question is gone, the focus back on Delete, the project still there
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        assertThat(browser.findElement(By.id("panel-confirm")).isDisplayed()).isFalse();
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("panel-delete");
        assertThat(browser.findElement(By.id("item-panel")).isDisplayed()).isTrue();
        assertThat(item(sort)).isNotEmpty();
        // WHEN Enter on Delete, then Enter on its confirmation
        clearResult();
        browser.switchTo().activeElement().sendKeys(Keys.ENTER);
        wait.until(
                d -> "panel-delete-confirm".equals(d.switchTo().activeElement().getAttribute("id")));
        browser.switchTo().activeElement().sendKeys(Keys.ENTER);
        // THEN the project is gone, the panel says so, and the log has the DeleteItem
        assertThat(result()).contains("deleted");
        assertThat(status()).isEqualTo("200");
        assertThat(item(sort)).isEmpty();
        wait.until(d -> "deleted".equals(d.findElement(By.id("panel-version")).getText()));
        assertThat(ConsoleItems.operations(ConsoleItems.logEntry(api, "item/delete", 200)))
                .containsExactly("GetItem", "DeleteItem");
    }

    // ---- Helpers ----------------------------------------------------------------------------------------------

    private Map<String, AttributeValue> item(String sort) {
        return ConsoleItems.item(engine, table, "WS#" + ws, sort);
    }

    /** Clicks the row of this sort key (retried: rows re-render as changes arrive) until the panel shows it. */
    private void openRow(String sort) {
        wait.ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(By.cssSelector("#collection tbody tr[data-sort='" + sort + "']"))
                    .click();
            return true;
        });
        wait.until(d -> d.findElement(By.id("item-panel")).isDisplayed()
                && d.findElement(By.id("item-title")).getText().endsWith("/ " + sort));
    }

    private void openEditor(String sort) {
        openRow(sort);
        browser.findElement(By.id("panel-edit")).click();
        wait.until(d -> d.findElement(By.id("panel-editor")).isDisplayed());
    }

    private String field(String id) {
        return browser.findElement(By.id(id)).getAttribute("value");
    }

    /** Changes the editor's text with a line of script on {@code a}, the parsed JSON, as an edit by hand. */
    private void editAttributes(String change) {
        browser.executeScript("const t = document.getElementById('panel-attributes');"
                + " const a = JSON.parse(t.value); "
                + change
                + " t.value = JSON.stringify(a, null, 2);");
    }

    private void clearResult() {
        browser.executeScript(
                "const r = document.getElementById('panel-result'); r.textContent = '';" + " delete r.dataset.status;");
    }

    /** The outcome of the panel's action, once there is one. */
    private String result() {
        return wait.until(d -> {
            WebElement result = d.findElement(By.id("panel-result"));
            return result.getAttribute("data-status") == null ? null : result.getText();
        });
    }

    /** Clicks a button of the panel and waits for its outcome; the outcome's text. */
    private String act(String button) {
        clearResult();
        browser.findElement(By.id(button)).click();
        return result();
    }

    private String status() {
        return browser.findElement(By.id("panel-result")).getAttribute("data-status");
    }
}
