package dev.oneread.tests.support;

import java.time.Duration;
import java.util.List;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The local console's page in a browser, as its tests read it: a tenant's collection opened, its rows, a request of
 * the log by method and path.
 *
 * <pre>{@code try (ConsolePage page = ConsolePage.open(api)) { page.openTenant(ws); }}</pre>
 */
public record ConsolePage(ChromeDriver browser, WebDriverWait waiter) implements AutoCloseable {

    /** A browser on the console of {@code api}, once the page says it is live. */
    public static ConsolePage open(LocalApi api) throws Exception {
        ChromeDriver browser = Chromium.start();
        ConsolePage page = new ConsolePage(browser, new WebDriverWait(browser, Duration.ofSeconds(10)));
        browser.get(api.uri("/_console").toString());
        page.waiter.until(d -> d.findElement(By.id("status")).getText().equals("live"));
        return page;
    }

    /** Opens the collection of {@code tenant}, and waits until the page shows it. */
    public void openTenant(String tenant) {
        // Clicked in the page: the list re-renders whenever partitions change, so a found element can go stale.
        waiter.until(d -> (Boolean) browser.executeScript(
                "const b = document.querySelector(`#partitions .tenant-name[data-tenant='${arguments[0]}']`);"
                        + " if (b) b.click(); return b != null;",
                tenant));
        waiter.until(d -> tenant.equals(d.findElement(By.id("collection-title")).getAttribute("data-view")));
    }

    /** The rows of the open collection. */
    public List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#collection tbody tr"));
    }

    /** The newest entry of the log for {@code method} and {@code path}, once there is one. */
    public WebElement newestRequest(String method, String path) {
        return waiter.until(d -> d.findElements(By.cssSelector("#requests li.request")).stream()
                .filter(li -> li.findElement(By.cssSelector(".method"))
                                .getText()
                                .equals(method)
                        && li.findElement(By.cssSelector(".path")).getText().equals(path))
                .findFirst()
                .orElse(null));
    }

    @Override
    public void close() {
        browser.quit();
    }
}
