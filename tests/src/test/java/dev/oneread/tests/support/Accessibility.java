package dev.oneread.tests.support;

import dev.oneread.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.JavascriptExecutor;

/**
 * axe-core, pinned in tests/browser/package.json ({@code npm ci --prefix tests/browser}; .ci/run does), run in the
 * page as it stands: the WCAG 2.0/2.1 A and AA rules and axe's best practices. The script goes in through the
 * driver, not a script tag, so the console's Content-Security-Policy ({@code script-src 'self'}) stays as it is.
 *
 * <pre>{@code assertThat(Accessibility.check(browser).serious()).isEmpty();}</pre>
 */
public final class Accessibility {
    /** Where the pinned axe-core lands; Maven runs the tests from the tests/ module's folder. */
    public static final Path AXE = Path.of("browser", "node_modules", "axe-core", "axe.min.js");

    private static final String RUN = "const done = arguments[arguments.length - 1];"
            + " axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',"
            + " 'best-practice']}, resultTypes: ['violations']})"
            + ".then(r => done(JSON.stringify({violations: r.violations.map(v => ({id: v.id, impact: v.impact,"
            + " help: v.help, targets: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}))})))"
            + ".catch(e => done(JSON.stringify({violations: [{id: 'axe-error', impact: 'critical', help: String(e),"
            + " targets: []}]})));";

    private Accessibility() {}

    /** One rule the page breaks: its id, impact (minor, moderate, serious, critical), help, and some of its nodes. */
    public record Violation(String id, String impact, String help, List<String> targets) {
        @Override
        public String toString() {
            return impact + " " + id + ": " + help + " " + targets;
        }
    }

    /** What axe found on the page as it is now. */
    public record Report(List<Violation> violations) {
        /** The violations a check fails on: serious and critical. */
        public List<Violation> serious() {
            return violations.stream()
                    .filter(v -> v.impact().equals("serious") || v.impact().equals("critical"))
                    .toList();
        }
    }

    public static Report check(JavascriptExecutor page) throws Exception {
        if (!Files.isReadable(AXE)) {
            throw new IllegalStateException("the accessibility check needs axe-core: npm ci --prefix tests/browser");
        }
        if (!Boolean.TRUE.equals(page.executeScript("return typeof window.axe === 'object'"))) {
            // Assigned to window explicitly: the driver runs the text inside a function, where axe's own UMD
            // wrapper would otherwise keep it local.
            page.executeScript(
                    "const module = undefined, define = undefined;" + Files.readString(AXE) + "; window.axe = axe;");
        }
        String json = (String) page.executeAsyncScript(RUN);
        List<Violation> violations = new ArrayList<>();
        for (Object o : (List<?>) Json.readObject(json).get("violations")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> v = (Map<String, Object>) o;
            @SuppressWarnings("unchecked")
            List<String> targets = (List<String>) v.get("targets");
            violations.add(new Violation(
                    String.valueOf(v.get("id")),
                    String.valueOf(v.get("impact")),
                    String.valueOf(v.get("help")),
                    targets));
        }
        return new Report(violations);
    }
}
