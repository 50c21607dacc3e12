package dev.oneread.tests.support;

import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A start-api console open in Chromium, once its event stream is live ("live" in the header), with the wait its
 * tests use; closing it quits the browser.
 *
 * <pre>{@code try (ConsolePage page = ConsolePage.open(api)) { page.browser().findElement(By.id("rescan")).click(); }}</pre>
 */
public final class ConsolePage implements AutoCloseable {
    private final ChromeDriver browser;
    private final WebDriverWait wait;

    private ConsolePage(ChromeDriver browser) {
        this.browser = browser;
        this.wait = new WebDriverWait(browser, Duration.ofSeconds(10));
    }

    public static ConsolePage open(LocalApi api) throws Exception {
        ConsolePage page = new ConsolePage(Chromium.start());
        page.browser.get(api.uri("/_console").toString());
        page.wait.until(d -> d.findElement(By.id("status")).getText().equals("live"));
        return page;
    }

    public ChromeDriver browser() {
        return browser;
    }

    public WebDriverWait waiting() {
        return wait;
    }

    @Override
    public void close() {
        browser.quit();
    }
}
