package dev.oneread.bench;

import dev.oneread.tests.support.ConsoleLoad;
import dev.oneread.tests.support.TestEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.openqa.selenium.By;
import org.openqa.selenium.ElementClickInterceptedException;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;

/**
 * On-demand benchmark (not a test): the side panel's open time while a bulk load arrives (issue 40, "a side panel
 * took up to 1.75 s to open"). Each round, {@link ConsoleLoad}'s scenario (2,000 creates from 4 clients into an open
 * 2,000-item collection) while this thread clicks a row in view, one after another, as a person does; each click's
 * time from the input to the next paint after its handlers (the browser's Event Timing entry, as INP measures it;
 * clicks under 16 ms are not reported by it and count as 16 ms), with the machine's load average.
 *
 * <p>Run: {@code bash bench/java-main.sh ConsolePanelOpenBenchmark [rounds]}.
 */
public final class ConsolePanelOpenBenchmark {
    private static final int DEFAULT_ROUNDS = 3;
    /** The Event Timing API reports an event from this duration up (its lowest threshold). */
    private static final double UNREPORTED_MS = 16;

    /** Every click on the collection, as the Event Timing API times it: input to the next paint. */
    private static final String OBSERVE = "window.panelClicks = [];"
            + " new PerformanceObserver((list) => { for (const e of list.getEntries())"
            + " if (e.name === 'click' && e.target?.closest?.('#collection')) window.panelClicks.push(e.duration); })"
            + ".observe({ type: 'event', durationThreshold: 16 });";

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_ROUNDS;
        TestEngine engine = TestEngine.get();
        String loadBefore = loadAverage();
        List<Double> all = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            try (ConsoleLoad console = ConsoleLoad.start(engine)) {
                console.browser.executeScript(OBSERVE);
                CompletableFuture<?> load = CompletableFuture.runAsync(() -> {
                    try {
                        console.load();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                int clicks = 0;
                while (!load.isDone()) {
                    clicks += clickARow(console, clicks) ? 1 : 0;
                }
                load.join();
                boolean opened =
                        console.browser.findElement(By.id("item-panel")).isDisplayed();
                List<Double> reported = new ArrayList<>();
                for (Object d : (List<?>) console.browser.executeScript("return window.panelClicks;")) {
                    reported.add(((Number) d).doubleValue());
                }
                List<Double> times = new ArrayList<>(reported);
                while (times.size() < clicks) {
                    times.add(UNREPORTED_MS);
                }
                all.addAll(times);
                System.out.printf(
                        "round %d: %d clicks during the load (%d of 16 ms or more), panel shown: %s; %s%n",
                        round, clicks, reported.size(), opened, summary(times));
            }
        }
        System.out.printf(
                "machine: %d cores; load average (1, 5, 15 min) before %s, after %s%nall rounds: %s%n",
                Runtime.getRuntime().availableProcessors(), loadBefore, loadAverage(), summary(all));
        System.exit(0);
    }

    /** Clicks the {@code n}th row in view (a few rows apart each time); false when the rows were drawn anew under it. */
    private static boolean clickARow(ConsoleLoad console, int n) {
        try {
            List<WebElement> rows = console.browser.findElements(By.cssSelector("#collection tbody tr"));
            if (rows.isEmpty()) {
                return false;
            }
            rows.get(Math.min(rows.size() - 1, n * 3 % 20)).click();
            return true;
        } catch (StaleElementReferenceException | ElementClickInterceptedException e) {
            return false; // drawn anew under the pointer, or under the sticky header: the next one
        }
    }

    private static String summary(List<Double> times) {
        if (times.isEmpty()) {
            return "no clicks";
        }
        List<Double> sorted = new ArrayList<>(times);
        Collections.sort(sorted);
        return String.format(
                "click to next paint: median %.0f ms, p95 %.0f ms, max %.0f ms over %d clicks",
                sorted.get(sorted.size() / 2),
                sorted.get((int) Math.ceil(sorted.size() * 0.95) - 1),
                Collections.max(sorted),
                sorted.size());
    }

    private static String loadAverage() throws Exception {
        String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
        return String.join(" ", fields[0], fields[1], fields[2]);
    }
}
