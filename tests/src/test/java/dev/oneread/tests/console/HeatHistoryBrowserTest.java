package dev.oneread.tests.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ConsolePage;
import dev.oneread.tests.support.OtherClient;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import dev.oneread.tests.support.UsesBrowser;
import java.nio.file.Files;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The Heat tab's last five minutes in a real browser, opened AFTER a burst: the hot key's sparkline is drawn from
 * the history the server kept, while "most accessed" (the last interval) no longer lists it, and its peak reads
 * above 100% offered, with the share accepted beside it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@UsesBrowser
@StartsProcesses
class HeatHistoryBrowserTest {
    private static final int REFUSED = 10;

    private final TestEngine engine = TestEngine.withLimits(OtherClient.HOT_KEY_SCALE);
    private final String table = "heat-spark-" + UUID.randomUUID().toString().substring(0, 8);
    private final String ws = Api.freshWorkspaceId("heat-spark");
    private ConsolePage page;

    @BeforeAll
    void start() throws Exception {
        page = ConsolePage.start(engine, table);
    }

    @AfterAll
    void stop() {
        if (page != null) {
            page.close();
        }
    }

    @Test
    void pageOpenedAfterABurst_drawsTheHotKeysSparkline_andItsPeakAbove100PercentOffered() throws Exception {
        // GIVEN a burst at one key, with no console open: 100 units served, then 10 x 390 units refused
        try (DynamoDbClient client = OtherClient.at(engine.endpoint)) {
            assertThat(OtherClient.hotKey(client, table, "WS#" + ws, REFUSED)).isEqualTo(REFUSED);
        }
        long burstEnded = System.currentTimeMillis();
        // WHEN the console is opened on its Heat tab, and shows a reading taken after the burst, in which the
        // tenant is no longer among the most accessed
        page.open();
        page.browser.findElement(By.id("tab-heat")).click();
        page.waiter()
                .until(d -> Boolean.TRUE.equals(page.browser.executeScript(
                        "const at = Number(document.querySelector('#heat-summary').dataset.at ?? 0);"
                                + " return at > arguments[0]"
                                + " && !document.querySelector(`#heat-accessed li[data-tenant='${arguments[1]}']`);",
                        burstEnded,
                        ws)));
        // THEN the last five minutes still list it, with a sparkline of units offered over accepted
        @SuppressWarnings("unchecked")
        Map<String, Object> row = (Map<String, Object>) page.browser.executeScript(
                "const li = document.querySelector(`#heat-history li[data-tenant='${arguments[0]}']`);"
                        + " if (!li) return {found: false};"
                        + " const offered = li.querySelector('svg.heat-spark polyline.spark-offered');"
                        + " return {found: true, peak: li.dataset.peakOfferedPercent,"
                        + " accepted: li.dataset.acceptedPercentAtPeak, throttled: li.dataset.throttled,"
                        + " points: offered ? offered.getAttribute('points').trim().split(/\\s+/).length : 0,"
                        + " area: li.querySelector('svg.heat-spark polygon.spark-accepted') != null,"
                        + " ticks: li.querySelectorAll('svg.heat-spark rect.spark-throttle').length,"
                        + " text: li.textContent};",
                ws);
        assertThat(row.get("found")).as("the tenant in the last 5 minutes").isEqualTo(true);
        assertThat((Long) row.get("points")).isPositive();
        assertThat(row.get("area")).isEqualTo(true);
        assertThat((Long) row.get("ticks")).isPositive();
        // AND its peak reads above 100% offered, above what was accepted in that second, its throttles counted
        double peak = Double.parseDouble((String) row.get("peak"));
        assertThat(peak).isGreaterThan(100);
        assertThat(peak).isGreaterThan(Double.parseDouble((String) row.get("accepted")));
        assertThat(row.get("throttled")).isEqualTo(String.valueOf(REFUSED));
        assertThat((String) row.get("text")).contains("peak offered " + row.get("peak") + "%");
        Files.createDirectories(ConsoleBrowserTest.SCREENSHOTS);
        Files.write(
                ConsoleBrowserTest.SCREENSHOTS.resolve("console-heat-history.png"),
                page.browser.getScreenshotAs(OutputType.BYTES));
    }
}
