package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Chromium;
import dev.oneread.tests.support.Eventually;
import dev.oneread.tests.support.LocalApi;
import dev.oneread.tests.support.OffersLoad;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console's Heat tab in a real browser, on an engine whose partition limits are a hundredth of DynamoDB's (10
 * write units a second per partition key value): one workspace takes a burst of creates and throttles, another
 * stays quiet, and the tab ranks them as they happen, from the console's own event stream.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
@OffersLoad
@StartsProcesses
class HeatPaneBrowserTest {
    private static final double SCALE = 0.01;
    /** Creates at once on one unsharded partition: several times its 10 write units a second. */
    private static final int BURST = 30;

    private static final String REASON = "TableWriteKeyRangeThroughputExceeded";
    /** The heat frame comes once a second; the burst's creates retry for seconds under throttling. */
    private static final Duration SEEN_WITHIN = Eventually.FAILSAFE;

    private final TestEngine engine = TestEngine.withLimits(SCALE);
    private final String table = "heat-" + UUID.randomUUID().toString().substring(0, 8);
    private final String hot = Api.freshWorkspaceId("heat-hot");
    private final String quiet = Api.freshWorkspaceId("heat-quiet");
    private LocalApi api;
    private ChromeDriver browser;

    @BeforeAll
    void start() throws Exception {
        api = LocalApi.start(engine, table, Map.of());
        for (String ws : List.of(hot, quiet)) {
            HttpResponse<String> created =
                    api.send("POST", "/workspaces", "{\"id\":\"" + ws + "\",\"name\":\"Heat\"}", List.of(), true);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        }
        browser = Chromium.start();
        browser.get(api.uri("/_console").toString());
        new WebDriverWait(browser, Eventually.FAILSAFE)
                .until(d -> d.findElement(By.id("status")).getText().equals("live"));
        browser.findElement(By.id("tab-heat")).click();
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

    @Test
    @SuppressWarnings("unchecked") // executeScript answers a JS array as a List
    void burstAtOneWorkspace_putsItFirstInMostThrottled_withItsReason_andNotTheQuietOne() throws Exception {
        assertThat(browser.findElement(By.id("heat-pane")).isDisplayed()).isTrue();
        assertThat(browser.findElement(By.id("data-pane")).isDisplayed()).isFalse();
        // GIVEN a quiet workspace with one project
        assertThat(create(quiet, "quiet").statusCode()).isEqualTo(201);
        // WHEN 30 clients create at one workspace at once, released together by a latch
        ExecutorService pool = Executors.newFixedThreadPool(BURST);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> burst = new ArrayList<>();
        for (int c = 0; c < BURST; c++) {
            String name = "burst " + c;
            burst.add(pool.submit(() -> {
                go.await();
                return create(hot, name);
            }));
        }
        go.countDown();
        for (Future<HttpResponse<String>> f : burst) {
            // Created, or refused as unavailable once the SDK's retries are spent: the partition was throttled.
            assertThat(f.get().statusCode()).as(f.get().body()).isIn(201, 503);
        }
        pool.shutdown();
        // THEN the Heat tab lists the hot workspace first among the most throttled, with a non-zero count and the
        // engine's reason (since the engine started: the list keeps a tenant throttled a moment ago)
        Eventually.await(() -> hot.equals(firstThrottled().get("tenant")), SEEN_WITHIN);
        Map<String, Object> first = firstThrottled();
        assertThat(first.get("tenant")).isEqualTo(hot);
        assertThat(Long.parseLong((String) first.get("total"))).isPositive();
        assertThat(first.get("reason")).isEqualTo(REASON);
        assertThat(Long.parseLong((String) first.get("reasonCount"))).isPositive();
        // AND the quiet workspace is not first (it was never throttled, so it is not listed at all)
        assertThat(first.get("tenant")).isNotEqualTo(quiet);
        assertThat(browser.findElements(By.cssSelector("#heat-throttled li[data-tenant='" + quiet + "']")))
                .isEmpty();
        // AND each row shows its units against the limit, as bars with their percent (its shards, folded under
        // it, have bars of their own)
        // (read in one script, as firstThrottled is: the once-a-second re-render cannot go stale under it)
        assertThat((List<Object>) browser.executeScript("return [...document.querySelectorAll("
                        + "'#heat-throttled li.heat-group:first-child > .heat-bars > .heat-bar')]"
                        + ".map((bar) => bar.dataset.unit);"))
                .containsExactly("read", "write");
        Files.createDirectories(ConsoleBrowserTest.SCREENSHOTS);
        Files.write(
                ConsoleBrowserTest.SCREENSHOTS.resolve("console-heat.png"), browser.getScreenshotAs(OutputType.BYTES));
    }

    /** The first row of "most throttled", read in one script so the once-a-second re-render cannot go stale under it. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> firstThrottled() {
        Object row = browser.executeScript("const li = document.querySelector('#heat-throttled li.heat-group');"
                + " if (!li) return {};"
                + " const r = li.querySelector(`:scope > .heat-throttles .heat-reason[data-reason='"
                + REASON
                + "']`);"
                + " return {tenant: li.dataset.tenant ?? null, total: li.dataset.throttledTotal,"
                + " reason: r ? r.dataset.reason : null, reasonCount: r ? r.dataset.count : '0'};");
        return (Map<String, Object>) row;
    }

    private HttpResponse<String> create(String workspace, String name) throws Exception {
        return api.send(
                "POST",
                "/workspaces/" + workspace + "/projects",
                "{\"name\":\"" + name + "\"}",
                List.of(workspace),
                false);
    }
}
