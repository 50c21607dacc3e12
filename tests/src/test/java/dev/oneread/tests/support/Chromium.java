package dev.oneread.tests.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium, driven through its own chromedriver (apt-get install chromium chromium-driver; .ci/run does),
 * headless, with a fresh profile, and with the background connections a closed network refuses turned off.
 * Nothing is downloaded at test time.
 */
public final class Chromium {
    public static final Path BROWSER = Path.of(System.getenv().getOrDefault("CHROMIUM", "/usr/bin/chromium"));
    public static final Path DRIVER = Path.of(System.getenv().getOrDefault("CHROMEDRIVER", "/usr/bin/chromedriver"));

    private Chromium() {}

    public static ChromeDriver start() throws Exception {
        if (!Files.isExecutable(BROWSER) || !Files.isExecutable(DRIVER)) {
            throw new IllegalStateException("browser tests need Debian's chromium and chromium-driver: "
                    + "apt-get install chromium chromium-driver (.ci/run installs them)");
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1600,1100",
                "--user-data-dir=" + Files.createTempDirectory("oneread-chromium"));
        String trace = System.getenv("CHROMIUM_TRACE");
        if (trace != null && !trace.isBlank()) {
            // A diagnosis, not a test: the browser's first CHROMIUM_TRACE_SECONDS (60 by default) as a DevTools
            // timeline (JSON, for Perfetto or a
            // script), which says how long each frame's script, style, layout and paint took. CHROMIUM_TRACE_CATEGORIES
            // adds categories: disabled-by-default-v8.cpu_profiler for the script's samples, and
            // disabled-by-default-devtools.timeline.invalidationTracking for what each frame styled and laid out
            // again, which records a stack at every invalidation: a node's removal then takes ~40x as long, so its
            // times are not the page's.
            String extra = System.getenv().getOrDefault("CHROMIUM_TRACE_CATEGORIES", "");
            options.addArguments(
                    "--trace-startup=devtools.timeline,disabled-by-default-devtools.timeline"
                            + (extra.isBlank() ? "" : "," + extra),
                    "--trace-startup-format=json",
                    "--trace-startup-duration=" + System.getenv().getOrDefault("CHROMIUM_TRACE_SECONDS", "60"),
                    "--trace-startup-file=" + trace);
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(DRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
        return driver;
    }
}
