package dev.oneread.bench;

import dev.oneread.tests.support.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A picture of a running console's Heat tab, for the docs and for a person to look at: headless Chromium at
 * 1400x900, the tab clicked, and the page saved once a group is drawn in the last five minutes and in the most
 * throttled (a burst that has ended leaves "most accessed" empty, and the history is what it is there for). It
 * prints the history's rows as the page shows them: peak offered and accepted shares, throttles.
 *
 * <pre>{@code bash bench/java-main.sh ConsoleHeatShot http://127.0.0.1:3000/_console heat.png}</pre>
 */
public final class ConsoleHeatShot {
    private static final Dimension WINDOW = new Dimension(1400, 900);
    /** The heat frame comes once a second; a row needs traffic, so the caller's load may take a while to show. */
    private static final Duration ROW_WITHIN = Duration.ofSeconds(60);

    private ConsoleHeatShot() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: ConsoleHeatShot <console url> <out.png>");
            System.exit(2);
        }
        ChromeDriver browser = Chromium.start();
        try {
            browser.manage().window().setSize(WINDOW);
            browser.get(args[0]);
            WebDriverWait wait = new WebDriverWait(browser, ROW_WITHIN);
            wait.until(d -> d.findElement(By.id("tab-heat")).isDisplayed());
            browser.findElement(By.id("tab-heat")).click();
            // A frame with an interval behind it: the first one, over 0 s, has no rates yet
            wait.until(d -> !d.findElements(By.cssSelector("#heat-history li.heat-history-group"))
                            .isEmpty()
                    && !d.findElements(By.cssSelector("#heat-throttled li.heat-group"))
                            .isEmpty());
            for (Object row : (java.util.List<?>) browser.executeScript(
                    "return [...document.querySelectorAll('#heat-history li.heat-history-group')].map((li) =>"
                            + " `${li.dataset.tenant ?? li.dataset.key}: ${li.dataset.points} points, peak offered"
                            + " ${li.dataset.peakOfferedPercent}%, accepted ${li.dataset.acceptedPercentAtPeak}%,"
                            + " ${li.dataset.throttled} throttles`);")) {
                System.out.println(row);
            }
            Path out = Path.of(args[1]).toAbsolutePath();
            Files.createDirectories(out.getParent());
            Files.write(out, browser.getScreenshotAs(OutputType.BYTES));
            System.out.println(out);
        } finally {
            browser.quit();
        }
    }
}
