package dev.oneread.tests.support;

import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A browser test's console: Chromium opened on a running start-api's {@code /_console}, once its events stream is
 * live, and closed with the server behind it.
 *
 * <pre>{@code ConsolePage page = ConsolePage.open(LocalApi.start(engine, table, Map.of()));}</pre>
 */
public record ConsolePage(LocalApi api, ChromeDriver browser, WebDriverWait waiter) implements AutoCloseable {
    /** How long a browser test waits for the page, by default. */
    public static final Duration WAIT = Duration.ofSeconds(10);

    public static ConsolePage open(LocalApi api) throws Exception {
        ChromeDriver browser = null;
        try {
            browser = Chromium.start();
            WebDriverWait wait = new WebDriverWait(browser, WAIT);
            browser.get(api.uri("/_console").toString());
            wait.until(d -> d.findElement(By.id("status")).getText().equals("live"));
            return new ConsolePage(api, browser, wait);
        } catch (Exception | Error e) {
            if (browser != null) {
                browser.quit();
            }
            api.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            browser.quit();
        } finally {
            api.close();
        }
    }
}
