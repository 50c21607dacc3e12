package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.RunnerCommand;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The console on the engine's change feed, in a real browser: a write made by {@code invoke} in another "process"
 * shows live and in the log, a request that writes one item twice shows each write's own diff, and the read only
 * the local engine makes is labelled and kept out of the budget. start-api runs registered in a state file of its
 * own, on a table of its own holding the sample data (workspace acme), as the start-api command runs it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@UsesBrowser
class ConsoleFeedBrowserTest {
    private static final String SAMPLE = "acme";

    private final TestEngine engine = TestEngine.get();
    private final String table = "feed-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("feed");

    private Path stateFile;
    private LocalApi api;
    private ChromeDriver browser;
    private ConsolePage page;

    @BeforeAll
    void start() throws Exception {
        stateFile = Files.createTempDirectory("oneread-feed").resolve("start-api.json");
        api = LocalApi.startRegistered(engine, table, stateFile);
        ConsolePage.createWorkspace(api, ws, "Feed");
        page = ConsolePage.open(api);
        browser = page.browser();
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    @Order(1)
    void writeThroughInvoke_shouldShowLiveInTheOpenCollection_andInTheLog() {
        // GIVEN the sample workspace's collection open
        page.openTenant(SAMPLE);
        page.waiter().until(d -> !page.rows().isEmpty());
        // WHEN invoke runs CreateProject on start-api's engine, as another process (the command line) does
        RunnerCommand.Run run = RunnerCommand.run(
                Map.of(),
                "",
                List.of(
                        "invoke",
                        "CreateProject",
                        "--event",
                        engine.root.resolve("events/create-project.json").toString(),
                        "--state-file",
                        stateFile.toString()));
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.status()).as(run.stdout()).isEqualTo(201);
        assertThat(run.stderr()).doesNotContain("not logged");
        String id =
                (String) Json.readObject((String) run.response().get("body")).get("id");
        // THEN the new project shows in the open collection by itself
        page.waiter().until(d -> shows("PROJ#" + id));
        // AND the log has its request, marked as invoke's, with its calls and the project's diff
        WebElement entry = page.newestRequest("POST", "/workspaces/" + SAMPLE + "/projects");
        assertThat(entry.getText()).contains("from invoke").contains("201");
        entry.click();
        WebElement detail = page.waiter().until(d -> d.findElement(By.cssSelector("#request-detail .diff")));
        assertThat(browser.findElement(By.id("request-detail")).getText())
                .contains("PutItem " + table)
                .contains("they agree");
        assertThat(detail.getText()).contains("/ PROJ#" + id);
    }

    @Test
    @Order(2)
    @SuppressWarnings("unchecked")
    void keyedCreate_shouldShowEachWriteOfItsIdempotencyRecord() throws Exception {
        // WHEN a project is created with an Idempotency-Key: its record is claimed, then completed
        String projects = "/workspaces/" + ws + "/projects";
        String key = "feed-" + UUID.randomUUID();
        HttpResponse<String> created =
                api.send("POST", projects, "{\"name\":\"keyed\"}", List.of(ws), false, "Idempotency-Key", key);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        // THEN its entry has two diffs of the idempotency record: none -> in progress, in progress -> completed
        Map<String, Object> entry = newestEntry("POST", projects);
        List<Map<String, Object>> idempotency = ((List<Map<String, Object>>) entry.get("writes"))
                .stream()
                        .filter(w -> String.valueOf(w.get("sort")).startsWith("IDEM#"))
                        .toList();
        assertThat(idempotency).hasSize(2);
        Map<String, Object> claimed = idempotency.get(0);
        Map<String, Object> completed = idempotency.get(1);
        assertThat(claimed.get("before")).isNull();
        assertThat(((Map<String, Object>) claimed.get("after")).get("status")).isEqualTo(Map.of("S", "INPROGRESS"));
        assertThat(completed.get("before")).isEqualTo(claimed.get("after"));
        assertThat(((Map<String, Object>) completed.get("after")).get("status")).isEqualTo(Map.of("S", "COMPLETED"));
        // AND the page shows both: the first with no item before, the second with its status changed
        page.newestRequest("POST", projects).click();
        List<WebElement> diffs = page.waiter().until(d -> {
            List<WebElement> found = d.findElements(By.cssSelector("#request-detail .diff")).stream()
                    .filter(div -> div.findElement(By.tagName("h4")).getText().contains("/ IDEM#"))
                    .toList();
            return found.size() == 2 ? found : null;
        });
        assertThat(diffs.get(0).findElement(By.tagName("h4")).getText()).contains("no item before");
        assertThat(diffs.get(1).findElements(By.cssSelector("tr.diff-changed")).stream()
                        .map(tr -> tr.findElement(By.tagName("td")).getText()))
                .contains("status");
    }

    @Test
    @Order(3)
    void stalePatch_shouldNotBeOverBudget_andItsEngineOnlyReadLabelled() throws Exception {
        // GIVEN a project at version 1
        HttpResponse<String> created =
                api.send("POST", "/workspaces/" + ws + "/projects", "{\"name\":\"stale\"}", List.of(ws), false);
        String id = (String) Json.readObject(created.body()).get("id");
        String path = "/workspaces/" + ws + "/projects/" + id;
        // WHEN it is renamed with a stale If-Match: the engine refuses the write and does not return the item,
        // so the store reads it (DynamoDB would have returned it with the refusal)
        HttpResponse<String> stale =
                api.send("PATCH", path, "{\"name\":\"late\"}", List.of(ws), false, "If-Match", "\"7\"");
        assertThat(stale.statusCode()).as(stale.body()).isEqualTo(412);
        // THEN the log entry is within its budget, counting the headers' calls all the same
        WebElement entry = page.newestRequest("PATCH", path);
        assertThat(entry.getAttribute("class")).doesNotContain("over-budget");
        String calls = stale.headers().firstValue("x-dynamo-calls").orElseThrow();
        assertThat(entry.findElement(By.cssSelector(".cost")).getText()).startsWith(calls + " calls");
        // AND its read is labelled as the local engine's own
        entry.click();
        WebElement detail = page.waiter().until(d -> d.findElement(By.id("request-detail")));
        page.waiter().until(d -> detail.getText().contains("budget:"));
        assertThat(detail.getText())
                .contains("local engine only, not counted against the budget")
                .contains("— within")
                .contains("they agree");
    }

    @Test
    @Order(4)
    @SuppressWarnings("unchecked")
    void seedAndImport_shouldShowLive_andEachAddOneEntry() throws Exception {
        // GIVEN the sample workspace's collection open, without the sample project delete-project.json deletes
        page.openTenant(SAMPLE);
        String deleted = "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W7";
        assertThat(api.send(
                                "DELETE",
                                "/workspaces/" + SAMPLE + "/projects/01JDQ6V7K4N3M2P1R0S9T8V7W7",
                                null,
                                List.of(SAMPLE),
                                false)
                        .statusCode())
                .isEqualTo(204);
        page.waiter().until(d -> !shows(deleted));
        // WHEN seed runs on start-api's engine THEN the project is back, live, and the log says seed wrote 1 item
        RunnerCommand.Run seed = RunnerCommand.run(Map.of(), "seed", "--state-file", stateFile.toString());
        assertThat(seed.exitCode()).as(seed.stderr()).isZero();
        page.waiter().until(d -> shows(deleted));
        assertThat(page.newestRequest("seed", "sample data").getText()).contains("from seed: 1 item");
        // WHEN a fixture file of one new project is imported THEN it shows live, and the log says so
        String sort = "PROJ#01JDQ6V7K4N3M2P1R0S9T8V7X9";
        Map<String, Object> existing = Json.readObject(api.send("GET", "/_console/api/fixtures", null, List.of(), false)
                .body());
        // a copy of a sample project under another id; without index keys, as an item from before the index
        Map<String, Object> template = new java.util.TreeMap<>((Map<String, Object>) ((List<?>) existing.get("Items"))
                .stream()
                        .filter(i -> Json.write(i).contains("PROJ#01JDQ6V7K4N3M2P1R0S9T8V7W6"))
                        .findFirst()
                        .orElseThrow());
        template.keySet().removeIf(name -> name.startsWith("GSI1"));
        String item = Json.write(template).replace("01JDQ6V7K4N3M2P1R0S9T8V7W6", "01JDQ6V7K4N3M2P1R0S9T8V7X9");
        HttpResponse<String> imported =
                api.send("POST", "/_console/api/fixtures", "{\"Items\":[" + item + "]}", List.of(), false);
        assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
        page.waiter().until(d -> shows(sort));
        assertThat(page.newestRequest("import", "fixture file").getText()).contains("from import: 1 item");
    }

    /** Whether the open collection shows the item of sort key {@code sort} (asked in the page: rows re-render). */
    private boolean shows(String sort) {
        return (Boolean) browser.executeScript(
                "return document.querySelector(`#collection tbody tr[data-sort='${arguments[0]}']`) != null;", sort);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> newestEntry(String method, String path) throws Exception {
        HttpResponse<String> log = api.send("GET", "/_console/api/requests", null, List.of(), false);
        return ((List<Map<String, Object>>) Json.readObject(log.body()).get("requests"))
                .stream()
                        .filter(e -> method.equals(e.get("method")) && path.equals(e.get("path")))
                        .findFirst()
                        .orElseThrow();
    }
}
