package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.keys.KeyCodec;
import dev.oneread.keys.ShardPlan;
import dev.oneread.keys.WorkspaceId;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.BulkLoad;
import dev.oneread.tests.support.CollectionOrder;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
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
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Seek in the browser (issue 40, "No seek", "Heavy first pages"): a 3,001-item collection opens with a page, not
 * every row; the "go to" box finds an id, or the start of one, that is not loaded; the oldest and newest ends; a
 * scrollbar over the whole collection that loads the page at its position; at most a bounded number of rows in
 * the page's model however far it scrolls; a hot tenant's seek over its shards; an index key over all its shards,
 * and the index list under a workspace filter. The page's model counts are read from the scroller's data
 * attributes (loaded rows, the first one's position, the total), as the page keeps them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@UsesBrowser
class ConsoleSeekBrowserTest {
    private static final int PROJECTS = 3_000;
    private static final int HOT_PROJECTS = 800;
    private static final int HOT_SHARDS = 4;
    /** Rows a fetch asks for (collection.js FETCH), and the rows the page keeps at most (KEEP). */
    private static final int FETCH = 300;

    private static final int KEEP = 1_500;
    /** A row's height in px (collection.js ROW). */
    private static final int ROW = 22;

    private final TestEngine engine = TestEngine.get();
    private final String table = "console-seekb-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("seekb");
    private final String hot = Api.freshWorkspaceId("seekbhot");
    private ConsolePage page;
    private ChromeDriver browser;
    private WebDriverWait wait;
    /** The collection's sort keys in its order, from the test's own Queries. */
    private List<String> truth;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(
                engine, table, new Dimension(1280, 800), Map.of("HotTenantShards", hot + "=" + HOT_SHARDS));
        browser = page.browser;
        wait = new WebDriverWait(browser, Eventually.FAILSAFE);
        wait.ignoring(StaleElementReferenceException.class);
        ConsolePage.createWorkspace(page.api, ws);
        ConsolePage.createWorkspace(page.api, hot);
        BulkLoad.putProjects(engine.client, table, ShardPlan.none(), WorkspaceId.of(ws), PROJECTS);
        BulkLoad.putProjects(
                engine.client, table, ShardPlan.parse(hot + "=" + HOT_SHARDS, null), WorkspaceId.of(hot), HOT_PROJECTS);
        assertThat(page.api
                        .send("POST", "/_console/api/rescan", null, List.of(), false)
                        .statusCode())
                .isEqualTo(200);
        truth = sortKeys(List.of(KeyCodec.workspacePartition(WorkspaceId.of(ws))));
        assertThat(truth).hasSize(1 + PROJECTS);
        page.open();
        page.openTenant(ws);
        wait.until(d -> summary().equals((1 + PROJECTS) + " items in 1 partition"));
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    @Order(1)
    void opening_shouldLoadAPageAroundTheView_notTheWholeCollection_withAScrollbarForAllOfIt() {
        // THEN the model holds a fetch of rows, not the 3,001
        wait.until(d -> model("loaded") > 0);
        assertThat(model("loaded")).isBetween(1L, (long) FETCH);
        assertThat(model("total")).isEqualTo(1 + PROJECTS);
        // AND the scroll area is as tall as every row of the collection
        long scrollHeight =
                (Long) browser.executeScript("return document.getElementById('collection-scroll').scrollHeight;");
        assertThat(scrollHeight).isGreaterThanOrEqualTo((long) (1 + PROJECTS) * ROW);
    }

    @Test
    @Order(2)
    void findById_shouldShowAnItemNotLoaded_selected_atItsPosition() {
        // GIVEN the project at position 2,500, not in the model
        int at = 2_500;
        String sort = truth.get(at);
        assertThat(model("base") + model("loaded")).isLessThanOrEqualTo(at);
        // WHEN its id is typed in the "go to" box
        find(sort.substring("PROJ#".length()));
        // THEN its row is shown, selected, and the model holds the page at its position
        awaitSelected(sort);
        assertThat(model("base")).isLessThanOrEqualTo(at);
        assertThat(model("base") + model("loaded")).isGreaterThan(at);
        assertThat(positionText()).startsWith("2,50");
    }

    @Test
    @Order(3)
    void aWriteToASoughtRow_shouldShowLive() throws Exception {
        // GIVEN the project at 2,700 sought (far from the first page)
        String sort = truth.get(2_700);
        String id = sort.substring("PROJ#".length());
        find(id);
        awaitSelected(sort);
        // WHEN it is renamed through the API
        assertThat(page.api
                        .send(
                                "PATCH",
                                "/workspaces/" + ws + "/projects/" + id,
                                "{\"name\":\"renamed far away\"}",
                                List.of(ws),
                                false,
                                "If-Match",
                                "\"1\"")
                        .statusCode())
                .isEqualTo(200);
        // THEN its row shows the new name, from the changed event, without the collection fetched again
        wait.until(d -> "renamed far away"
                .equals(d.findElement(By.cssSelector("#collection tbody tr[data-sort='" + sort + "'] td:nth-child(3)"))
                        .getText()));
    }

    @Test
    @Order(3)
    void findByPrefix_shouldShowTheFirstItemWithIt() {
        scrollTo(0);
        wait.until(d -> model("base") == 0);
        String sort = truth.get(2_100);
        String prefix = sort.substring("PROJ#".length(), "PROJ#".length() + 20).toLowerCase(Locale.ROOT);
        String first = truth.stream()
                .filter(s -> s.startsWith("PROJ#" + prefix.toUpperCase(Locale.ROOT)))
                .findFirst()
                .orElseThrow();
        find(prefix);
        awaitSelected(first);
    }

    @Test
    @Order(4)
    void ends_shouldShowTheNewestProject_thenTheOldest() {
        // WHEN newest is clicked
        browser.findElement(By.id("collection-newest")).click();
        // THEN the newest project's row is on screen
        String newest = truth.get(truth.size() - 1);
        wait.until(d -> onScreen(newest));
        assertThat(model("base") + model("loaded")).isEqualTo(truth.size());
        // AND oldest goes back to META, at the top
        browser.findElement(By.id("collection-oldest")).click();
        wait.until(d -> onScreen("META") && model("base") == 0);
    }

    @Test
    @Order(5)
    void scrollbar_shouldLoadThePageAtItsPosition_andSayWhereItIs() {
        // WHEN the scrollbar is dragged to the row at 1,800 of 3,001
        scrollTo(1_800);
        // THEN that row is drawn at the top of the view, and the page says where it is
        wait.until(d -> onScreen(truth.get(1_800)));
        Long top = (Long) browser.executeScript(
                "const s = document.getElementById('collection-scroll');"
                        + " const tr = s.querySelector(`tbody tr[data-sort='${arguments[0]}']`);"
                        + " return Math.round(tr.getBoundingClientRect().top - s.getBoundingClientRect().top);",
                truth.get(1_800));
        assertThat(top).isBetween(0L, 2L * ROW);
        assertThat(positionText()).startsWith("1,801–").contains("of 3,001");
    }

    @Test
    @Order(6)
    void scrollingAcrossEveryPage_shouldKeepABoundedNumberOfRowsInMemory() {
        long most = 0;
        for (int at = 0; at < truth.size(); at += FETCH / 2) {
            int position = at;
            scrollTo(position);
            wait.until(d -> onScreen(truth.get(position)));
            most = Math.max(most, model("loaded"));
        }
        // every page was loaded on the way, never more than KEEP rows at once
        assertThat(most).isGreaterThan(FETCH).isLessThanOrEqualTo(KEEP);
        assertThat(model("loaded")).isLessThanOrEqualTo(KEEP);
    }

    @Test
    @Order(7)
    void hotTenant_shouldSeekOverItsShards() {
        List<String> hotTruth = sortKeys(CollectionOrder.partitions(hot, HOT_SHARDS));
        page.openTenant(hot);
        wait.until(d -> summary().startsWith((1 + HOT_PROJECTS) + " items in "));
        String sort = hotTruth.get(640);
        find(sort.substring("PROJ#".length()));
        awaitSelected(sort);
        assertThat(model("base")).isLessThanOrEqualTo(640);
        assertThat(positionText()).contains("of 801");
    }

    @Test
    @Order(8)
    void indexList_underAWorkspaceFilter_andAnIndexKey_shouldOpenEveryShardMerged() {
        // WHEN the workspace list is filtered to the first workspace
        browser.findElement(By.id("filter")).sendKeys(ws);
        wait.until(d -> d.findElements(By.cssSelector("#partitions li.tenant")).stream()
                .allMatch(li -> ws.equals(li.getAttribute("data-tenant"))));
        // THEN its statuses are still listed, each once
        WebElement active = wait.until(
                d -> d.findElement(By.cssSelector("#index-partitions li.index-key[data-key='STATUS#ACTIVE']")));
        assertThat(browser.findElements(By.cssSelector("#index-partitions li.index-key[data-key^='STATUS#ACTIVE']")))
                .hasSize(1);
        // WHEN the status is opened
        active.findElement(By.cssSelector("button.index-key-open")).click();
        wait.until(d ->
                "STATUS#ACTIVE".equals(d.findElement(By.id("collection-title")).getAttribute("data-view")));
        // THEN its entries show from every shard, merged by index sort key, each row saying its shard
        wait.until(d -> d.findElements(By.cssSelector("#collection tbody tr")).size() > 20);
        List<String> shards = browser.findElements(By.cssSelector("#collection tbody tr td:nth-child(2)")).stream()
                .map(td -> td.getAttribute("data-index-partition"))
                .toList();
        assertThat(shards).allMatch(p -> p != null && p.startsWith("STATUS#ACTIVE#"));
        assertThat(shards.stream().distinct().count()).isGreaterThan(1);
        List<String> sorts = browser.findElements(By.cssSelector("#collection tbody tr")).stream()
                .map(tr -> tr.getAttribute("data-sort"))
                .toList();
        assertThat(sorts).isSortedAccordingTo(Comparator.naturalOrder());
        assertThat(summary()).matches("\\d+ entries in 8 partitions");
        browser.findElement(By.id("filter")).clear();
    }

    @Test
    @Order(9)
    void aSeekAnsweredAfterTheTextChanged_shouldNotMoveTheRows_soANameTypedOnIsFoundWhereItWas() {
        // GIVEN the workspace open at its first page, a project's name from it, and the page's seeks held until the
        // test lets each go (the box seeks at each pause in typing; a busy machine answers late)
        page.openTenant(ws);
        wait.until(d -> model("loaded") > 0 && model("base") == 0);
        String name = (String) browser.executeScript(
                "return document.querySelectorAll(\"#collection tbody tr[data-kind='project']\")[5]"
                        + ".children[2].getAttribute('title');");
        browser.executeScript("window.heldSeeks = []; const fetchNow = window.fetch;"
                + " window.fetch = (url, init) => String(url).includes('find=')"
                + " ? new Promise((resolve) => window.heldSeeks.push(() => resolve(fetchNow(url, init))))"
                + " : fetchNow(url, init);");
        try {
            // WHEN "ZZ" is typed (a key prefix: its page is the collection's end), and held
            type("ZZ");
            wait.until(d -> heldSeeks() == 1);
            // AND the text becomes the name before that answer comes
            type(name);
            // AND then the answer for "ZZ" comes, and then the name's (not a key: looked for in the rows loaded)
            browser.executeScript("window.heldSeeks[0]();");
            wait.until(d -> heldSeeks() == 2);
            browser.executeScript("window.heldSeeks[1]();");
            // THEN the rows stayed at the first page, where the name's row is found and selected
            wait.until(d -> (Boolean) browser.executeScript(
                    "const tr = document.querySelector('#collection tbody tr.selected');"
                            + " return tr != null && tr.children[2].getAttribute('title').includes(arguments[0]);",
                    name));
            assertThat(model("base")).isZero();
            assertThat(browser.findElement(By.id("collection-find")).getAttribute("class"))
                    .doesNotContain("not-found");
        } finally {
            browser.executeScript("window.heldSeeks.forEach((release) => release());");
        }
    }

    /** Sets the "go to" box to {@code text} as typing leaves it (one input event), without Enter. */
    private void type(String text) {
        browser.executeScript(
                "const box = document.getElementById('collection-find'); box.value = arguments[0];"
                        + " box.dispatchEvent(new Event('input'));",
                text);
    }

    private long heldSeeks() {
        return (Long) browser.executeScript("return window.heldSeeks.length;");
    }

    private void find(String text) {
        WebElement box = browser.findElement(By.id("collection-find"));
        box.clear();
        box.sendKeys(text, Keys.ENTER);
    }

    private void awaitSelected(String sort) {
        wait.until(d -> (Boolean) browser.executeScript(
                "const tr = document.querySelector(`#collection tbody tr[data-sort='${arguments[0]}']`);"
                        + " return tr != null && tr.classList.contains('selected');",
                sort));
        wait.until(d -> onScreen(sort));
    }

    /** Whether the row of {@code sort} is drawn inside the scroller's visible box. */
    private boolean onScreen(String sort) {
        return Boolean.TRUE.equals(browser.executeScript(
                "const s = document.getElementById('collection-scroll');"
                        + " const tr = s.querySelector(`tbody tr[data-sort='${arguments[0]}']`);"
                        + " if (!tr) return false; const r = tr.getBoundingClientRect(), b = s.getBoundingClientRect();"
                        + " return r.top >= b.top && r.bottom <= b.bottom;",
                sort));
    }

    private void scrollTo(int position) {
        browser.executeScript(
                "document.getElementById('collection-scroll').scrollTop = arguments[0];", (long) position * ROW);
    }

    /** One of the page's model counts: loaded (rows held), base (the first one's position), total. */
    private long model(String name) {
        Object value = browser.executeScript(
                "return document.getElementById('collection-scroll').dataset[arguments[0]] ?? null;", name);
        assertThat(value).as("the page's model count %s", name).isNotNull();
        return Long.parseLong((String) value);
    }

    private String positionText() {
        return browser.findElement(By.id("collection-position")).getText();
    }

    private String summary() {
        return browser.findElement(By.id("collection-summary")).getText();
    }

    private List<String> sortKeys(List<String> partitions) {
        return CollectionOrder.sortKeys(engine.client, table, partitions);
    }
}
