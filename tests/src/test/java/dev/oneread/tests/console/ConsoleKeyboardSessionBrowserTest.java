package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsoleHttp;
import dev.oneread.tests.support.ConsoleItems;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

/**
 * A whole working session in the console from the keyboard alone (issue 40, part 5): find a workspace and an item
 * in it, open the item, edit it in the side panel and save it, run a query in the Table tools, import a fixture
 * file, export the table. Only keys move the focus and act (Tab, Shift+Tab, Enter, Space, typing), sent to whatever
 * has the focus; no click, no script that focuses or acts. The one action that is not a key: the file's path sent to
 * the focused file input, in place of the operating system's file picker, which no browser test can drive.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
class ConsoleKeyboardSessionBrowserTest {
    /** Tab presses allowed to reach one control: the whole page's tab stops, with room for a longer log. */
    private static final int MAX_TABS = 400;

    private final TestEngine engine = TestEngine.get();
    private final String table = "keys-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("keys");
    private final List<String> projects = new ArrayList<>();
    private ConsolePage page;
    private LocalApi api;
    private ChromeDriver browser;
    private WebDriverWait wait;
    private Path fixture;
    private String importedSort;
    private Path downloads;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table, new Dimension(1280, 900));
        api = page.api();
        // GIVEN a workspace with three projects, one named to be found
        ConsolePage.createWorkspace(api, ws, "Keys");
        for (String name : List.of("alpha", "the one to find", "gamma")) {
            projects.add(create(name));
        }
        // AND a fixture file holding a project of the workspace, exported then deleted through the API
        String imported = create("brought back by import");
        importedSort = "PROJ#" + imported;
        Map<String, Object> item = exportedItem(importedSort);
        HttpResponse<String> deleted = api.send(
                "DELETE", "/workspaces/" + ws + "/projects/" + imported, null, List.of(ws), false, "If-Match", "\"1\"");
        assertThat(deleted.statusCode()).as(deleted.body()).isEqualTo(204);
        fixture = Files.createTempDirectory("oneread-keys").resolve("one-project.json");
        Files.writeString(fixture, Json.write(Map.of("Items", List.of(item))), StandardCharsets.UTF_8);
        page.open();
        browser = page.browser();
        wait = page.waiter();
        // Downloads land in a folder of the test's (a setting of the browser, not an action on the page).
        downloads = Files.createTempDirectory("oneread-keys-downloads");
        browser.executeCdpCommand(
                "Browser.setDownloadBehavior", Map.of("behavior", "allow", "downloadPath", downloads.toString()));
        wait.until(d -> !d.findElements(By.cssSelector("#partitions .tenant-name[data-tenant='" + ws + "']"))
                .isEmpty());
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void aWholeSession_shouldBeWorkedFromTheKeyboardAlone() throws Exception {
        String found = "PROJ#" + projects.get(1);

        // FIND: the workspace by the collection filter, then the item by the "go to" box
        tabTo(e -> "filter".equals(e.getAttribute("id")), "the collection filter");
        keys(ws);
        tabTo(e -> ws.equals(e.getAttribute("data-tenant")), "the workspace's button");
        keys(Keys.ENTER);
        wait.until(d -> ws.equals(d.findElement(By.id("collection-title")).getAttribute("data-view")));
        wait.until(d -> d.findElements(By.cssSelector("#collection tbody tr")).size() >= 4);
        tabTo(e -> "collection-find".equals(e.getAttribute("id")), "the go-to box");
        keys("the one to find");
        wait.until(d -> "true"
                .equals(d.findElement(By.cssSelector("#collection tbody tr[data-sort='" + found + "']"))
                        .getAttribute("aria-selected")));

        // OPEN: Enter on the rows opens the selected one in the side panel
        tabTo(e -> "collection-scroll".equals(e.getAttribute("id")), "the rows");
        keys(Keys.ENTER);
        wait.until(d -> d.findElement(By.id("item-panel")).isDisplayed()
                && d.findElement(By.id("item-title")).getText().endsWith("/ " + found));
        assertThat(browser.findElement(By.id("panel-version")).getAttribute("data-version"))
                .isEqualTo("1");

        // EDIT: Edit in the panel, the attributes retyped with a new name
        tabTo(e -> "panel-edit".equals(e.getAttribute("id")), "the panel's Edit button");
        keys(Keys.ENTER);
        wait.until(d -> "panel-attributes".equals(d.switchTo().activeElement().getAttribute("id")));
        Map<String, Object> attributes =
                new LinkedHashMap<>(Json.readObject(focused().getAttribute("value")));
        attributes.put("name", Map.of("S", "edited from the keyboard"));
        withModifier(Keys.CONTROL, "a");
        keys(Json.write(attributes));

        // SAVE: the panel shows the new version, and the request log the edit
        tabTo(e -> "panel-save".equals(e.getAttribute("id")), "the panel's Save button");
        keys(Keys.ENTER);
        String saved = wait.until(d -> {
            WebElement result = d.findElement(By.id("panel-result"));
            return result.getAttribute("data-status") == null ? null : result.getText();
        });
        assertThat(saved).contains("saved", "at version 2");
        wait.until(d -> "2".equals(d.findElement(By.id("panel-version")).getAttribute("data-version")));
        wait.until(d -> d.findElements(By.cssSelector("#requests li.request")).stream()
                .anyMatch(li -> li.getText().contains("/_console/api/item/edit")));
        assertThat(ConsoleItems.item(engine, table, "WS#" + ws, found)
                        .get("name")
                        .s())
                .isEqualTo("edited from the keyboard");

        // QUERY: the Table tools' Query of the workspace's partition, run by Enter in its field
        tabTo(e -> "read-partition".equals(e.getAttribute("id")), "the Table tools' partition key field");
        keys("WS#" + ws, Keys.ENTER);
        int expected = engine.client
                .query(QueryRequest.builder()
                        .tableName(table)
                        .keyConditionExpression("EntityRef = :p")
                        .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("WS#" + ws)))
                        .build())
                .count();
        wait.until(d -> String.valueOf(expected)
                .equals(d.findElement(By.id("read-summary")).getAttribute("data-count")));
        assertThat(browser.findElement(By.id("read-items")).getText()).contains("edited from the keyboard");

        // IMPORT: back up to the header; its checkbox toggled by Space, then the file input
        tabBackTo(e -> "import-fixtures".equals(e.getAttribute("id")), "the fixture file input");
        withModifier(Keys.SHIFT, Keys.TAB);
        assertThat(focused().getAttribute("id")).isEqualTo("import-bookkeeping");
        keys(Keys.SPACE);
        assertThat(focused().isSelected())
                .as("Space checks the bookkeeping box")
                .isTrue();
        keys(Keys.SPACE, Keys.TAB);
        assertThat(browser.findElement(By.id("import-bookkeeping")).isSelected())
                .isFalse();
        assertThat(focused().getAttribute("id")).isEqualTo("import-fixtures");
        // The one action that is not a key: the file's path to the focused input, for the system's file picker.
        focused().sendKeys(fixture.toString());
        wait.until(d -> d.findElement(By.id("status")).getText().startsWith("imported"));
        assertThat(browser.findElement(By.id("status")).getText()).isEqualTo("imported 1 of 1, skipped 0");
        assertThat(ConsoleItems.item(engine, table, "WS#" + ws, importedSort)
                        .get("name")
                        .s())
                .isEqualTo("brought back by import");

        // EXPORT: the export link, by Enter: the file downloaded is the table, the edit and the import in it
        tabBackTo(e -> "export-fixtures".equals(e.getAttribute("id")), "the export link");
        keys(Keys.ENTER);
        Path file = downloads.resolve("oneread-fixtures.json");
        Eventually.await(() -> Files.exists(file), Eventually.FAILSAFE);
        assertThat(file).as("the download of the export link").exists();
        Map<String, Object> exported = Json.readObject(Files.readString(file));
        assertThat(exported).isEqualTo(Json.readObject(ConsoleHttp.export(api)));
        assertThat(Files.readString(file)).contains("edited from the keyboard", importedSort);
    }

    // ---- Keys ---------------------------------------------------------------------------------------------------

    /** Keys to whatever has the focus, as a person types them. */
    private void keys(CharSequence... keys) {
        new Actions(browser).sendKeys(keys).perform();
    }

    /** A key pressed with a modifier held (Ctrl+A, Shift+Tab). */
    private void withModifier(Keys modifier, CharSequence key) {
        new Actions(browser).keyDown(modifier).sendKeys(key).keyUp(modifier).perform();
    }

    private WebElement focused() {
        return browser.switchTo().activeElement();
    }

    private void tabTo(Predicate<WebElement> wanted, String what) {
        tab(wanted, what, false);
    }

    private void tabBackTo(Predicate<WebElement> wanted, String what) {
        tab(wanted, what, true);
    }

    /** Presses Tab (Shift+Tab) until the focus is on what is wanted; fails naming the stops passed when it never is. */
    private void tab(Predicate<WebElement> wanted, String what, boolean back) {
        List<String> passed = new ArrayList<>();
        for (int i = 0; i < MAX_TABS; i++) {
            if (back) {
                withModifier(Keys.SHIFT, Keys.TAB);
            } else {
                keys(Keys.TAB);
            }
            WebElement now = focused();
            if (wanted.test(now)) {
                System.out.println("keyboard session: " + (i + 1) + (back ? " Shift+Tab" : " Tab") + " to " + what);
                return;
            }
            String id = now.getAttribute("id");
            passed.add(id == null || id.isEmpty() ? now.getTagName() : id);
        }
        throw new AssertionError("the keyboard never reaches " + what + " in " + MAX_TABS + " presses; it passed "
                + passed.stream().distinct().toList());
    }

    // ---- Data ---------------------------------------------------------------------------------------------------

    private String create(String name) throws Exception {
        HttpResponse<String> created = api.createProject(ws, "{\"name\":\"" + name + "\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return (String) Json.readObject(created.body()).get("id");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> exportedItem(String sort) throws Exception {
        List<Map<String, Object>> items = (List<Map<String, Object>>)
                Json.readObject(ConsoleHttp.export(api)).get("Items");
        return items.stream()
                .filter(i -> Map.of("S", sort).equals(i.get("Detail")))
                .findFirst()
                .orElseThrow();
    }
}
