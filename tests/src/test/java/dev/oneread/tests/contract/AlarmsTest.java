package dev.oneread.tests.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.ProjectRoot;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.store.calls.JobPace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every alarm of template.yaml can fire, and healthy traffic does not fire it: each alarm's rule (period, M of N,
 * threshold, missing data, metric math) is read from the template and evaluated as CloudWatch would
 * ({@link AlarmEvaluation}) on the data of a failure and of healthy traffic. A one-shot job's failure is one run, so
 * one datapoint; a healthy job runs until {@link JobPace#STOP_MARGIN} before its deadline. The test writes the table
 * of every alarm, breach and no breach, to tests/target/alarms.md.
 */
class AlarmsTest {
    private final Path root = ProjectRoot.find();
    private final SamTemplate template = SamTemplate.load(root.resolve("template.yaml"));

    /** The jobs an operator or a schedule starts once (issue 38): one run, one datapoint. */
    private static final Set<String> ONE_SHOT = Set.of("MigrateHotTenant", "BackfillIndex", "PlanJobs");

    /** The jobs that run until JobPace.STOP_MARGIN before their deadline by design: the one-shot ones and RunJob. */
    private static final Set<String> JOBS = Set.of("MigrateHotTenant", "BackfillIndex", "PlanJobs", "RunJob");

    /** Per-minute datapoints for this long show that a steady state stays below an M-of-N rule. */
    private static final int STEADY_MINUTES = 20;

    /** A failure that lasts through a 5-minute canary (DeploymentType's default). */
    private static final int CANARY_MINUTES = 5;

    /** How long a job's last page may take past its stop: a few calls of a few milliseconds, with room to spare. */
    private static final double LAST_PAGE_MS = 100;

    /** What one alarm's metric looks like on a failure, and on healthy traffic. */
    private record Scenario(
            String breach,
            Map<String, List<Double>> breaching,
            String healthy,
            Map<String, List<Double>> healthyData) {}

    @Test
    void everyAlarm_shouldFireOnItsFailure_andNotOnHealthyTraffic() throws IOException {
        // GIVEN every alarm of the template, its rule read from it
        Map<String, Map<String, Object>> alarms = template.resourcesOfType("AWS::CloudWatch::Alarm");
        assertThat(alarms).hasSizeGreaterThan(80);
        List<String> rows = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        alarms.forEach((name, resource) -> {
            AlarmEvaluation alarm = AlarmEvaluation.of(template, name);
            Scenario scenario = scenario(name, SamTemplate.map(resource.get("Properties")));

            // WHEN CloudWatch would evaluate it on a failure and on healthy traffic
            boolean fires = alarm.alarms(scenario.breaching());
            boolean quiet = !alarm.alarms(scenario.healthyData());

            // THEN the failure fires it, and healthy traffic does not
            if (!fires) {
                wrong.add(name + " (" + alarm.rule() + ") does not fire on " + scenario.breach());
            }
            if (!quiet) {
                wrong.add(name + " (" + alarm.rule() + ") fires on healthy traffic: " + scenario.healthy());
            }
            Object condition = resource.get("Condition");
            rows.add("| " + name + (condition == null ? "" : " (only with " + condition + ")") + " | " + alarm.rule()
                    + " | " + scenario.breach() + " | " + (fires ? "ALARM" : "OK") + " | " + scenario.healthy() + " | "
                    + (quiet ? "OK" : "ALARM") + " |");
        });
        writeTable(rows);

        assertThat(wrong).isEmpty();
    }

    @Test
    void everyCapAlarm_shouldExistOnlyWhereItsTableOrIndexHasACap() {
        // GIVEN the alarms on MaxOnDemandThroughput throttles, and the table's caps
        Map<String, Object> table =
                SamTemplate.map(template.resources().get("Table").get("Properties"));
        template.resourcesOfType("AWS::CloudWatch::Alarm").forEach((name, resource) -> {
            String text = String.valueOf(resource.get("Properties"));
            if (!text.contains("MaxOnDemandThroughputThrottleEvents")) {
                return;
            }
            // THEN the alarm is conditional (an uncapped table or index never throttles for its cap)
            assertThat(resource.get("Condition")).as(name).isNotNull();
            // AND the table or the index it watches declares OnDemandThroughput
            Matcher index = Pattern.compile("GlobalSecondaryIndexName, Value=([A-Za-z0-9]+)")
                    .matcher(text);
            if (index.find()) {
                String indexName = index.group(1);
                Map<String, Object> gsi = SamTemplate.list(table.get("GlobalSecondaryIndexes")).stream()
                        .map(SamTemplate::map)
                        .filter(g -> indexName.equals(g.get("IndexName")))
                        .findFirst()
                        .orElseThrow();
                assertThat(gsi).as(name + ": " + indexName).containsKey("OnDemandThroughput");
            } else {
                assertThat(table).as(name).containsKey("OnDemandThroughput");
            }
        });
    }

    @Test
    void everyDocumentedInvokeOfADeployedFunction_shouldNameTheLiveAlias() throws IOException {
        // GIVEN every `aws lambda invoke` in the README and docs/ (a command may wrap onto the next line)
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        Pattern invoke = Pattern.compile("aws lambda invoke\\s+--function-name\\s+(\\S+)");
        List<String> found = new ArrayList<>();
        for (Path page : pages) {
            Matcher m = invoke.matcher(Files.readString(page));
            while (m.find()) {
                found.add(root.relativize(page) + ": " + m.group(1));
            }
        }

        // THEN each names :live: an unqualified invoke runs $LATEST, which no alarm and no rollback watches
        assertThat(found).isNotEmpty().allSatisfy(f -> assertThat(f).endsWith(":live"));
    }

    private Scenario scenario(String name, Map<String, Object> properties) {
        String function = functionOf(properties);
        boolean oneShot = ONE_SHOT.contains(function);
        String metric = String.valueOf(properties.getOrDefault("MetricName", ""));
        String ids = properties.containsKey("Metrics")
                ? String.valueOf(SamTemplate.list(properties.get("Metrics")).stream()
                        .map(m -> SamTemplate.map(m).get("Id"))
                        .toList())
                : "";
        if (ids.contains("duration")) {
            double timeout = timeoutMillis(function);
            if (JOBS.contains(function)) {
                double stop = timeout - JobPace.STOP_MARGIN.toMillis() + LAST_PAGE_MS;
                return oneShot
                        ? scenario(
                                "one run that hits its " + ms(timeout) + " timeout",
                                Map.of("duration", once(timeout)),
                                "one run that stops itself at " + ms(stop),
                                Map.of("duration", once(stop)))
                        : scenario(
                                "every run hits its " + ms(timeout) + " timeout, " + CANARY_MINUTES + " min",
                                Map.of("duration", steady(timeout, CANARY_MINUTES)),
                                "every run stops itself at " + ms(stop) + ", " + STEADY_MINUTES + " min",
                                Map.of("duration", steady(stop, STEADY_MINUTES)));
            }
            return scenario(
                    "p90 at 90% of its " + ms(timeout) + " timeout, " + CANARY_MINUTES + " min",
                    Map.of("duration", steady(0.9 * timeout, CANARY_MINUTES)),
                    "p90 at 10% of the timeout, " + STEADY_MINUTES + " min",
                    Map.of("duration", steady(0.1 * timeout, STEADY_MINUTES)));
        }
        if (ids.contains("throttles")) {
            Map<String, List<Double>> breach = new LinkedHashMap<>();
            breach.put("reads", steady(10, CANARY_MINUTES));
            breach.put("writes", Collections.nCopies(CANARY_MINUTES, null));
            Map<String, List<Double>> healthy = new LinkedHashMap<>();
            healthy.put("reads", Collections.nCopies(STEADY_MINUTES, null));
            healthy.put("writes", Collections.nCopies(STEADY_MINUTES, null));
            return scenario(
                    "10 read throttle events a minute, " + CANARY_MINUTES + " min",
                    breach,
                    "no throttle events (the metric publishes nothing), " + STEADY_MINUTES + " min",
                    healthy);
        }
        if (ids.contains("requests")) {
            return scenario(
                    "10 of 100 requests 5xx a minute, " + CANARY_MINUTES + " min",
                    Map.of("errors", steady(10, CANARY_MINUTES), "requests", steady(100, CANARY_MINUTES)),
                    "1 of 100 requests 5xx a minute, " + STEADY_MINUTES + " min",
                    Map.of("errors", steady(1, STEADY_MINUTES), "requests", steady(100, STEADY_MINUTES)));
        }
        return switch (metric) {
            case "Errors", "Throttles" ->
                oneShot
                        ? single(
                                "one " + (metric.equals("Errors") ? "failed" : "throttled") + " run",
                                1,
                                "one successful run",
                                0)
                        : perMinute(metric + " every minute", 1, "none", 0);
            case "serverError" -> perMinute("a 5xx answer every minute", 1, "no 5xx answer", 0);
            case "overBudget" -> single("one request over its call budget", 1, "none over budget", 0);
            case "Latency" -> perMinute("p99 5,000 ms", 5000, "p99 300 ms", 300);
            case "ApproximateNumberOfMessagesVisible" -> single("one dead letter", 1, "no dead letter", 0);
            case "ApproximateAgeOfOldestMessage" ->
                scenario(
                        "oldest task 4,000 s old for 15 min",
                        Map.of(AlarmEvaluation.METRIC, steady(4000, 15)),
                        "oldest task 600 s old for an hour",
                        Map.of(AlarmEvaluation.METRIC, steady(600, 60)));
            default -> throw new AssertionError(name + ": no scenario for metric " + metric + ids);
        };
    }

    private static Scenario scenario(
            String breach, Map<String, List<Double>> breaching, String healthy, Map<String, List<Double>> healthyData) {
        return new Scenario(breach, breaching, healthy, healthyData);
    }

    private static Scenario single(String breach, double bad, String healthy, double good) {
        return scenario(
                breach + " (one datapoint)",
                Map.of(AlarmEvaluation.METRIC, once(bad)),
                healthy + " (" + STEADY_MINUTES + " datapoints of " + (int) good + ")",
                Map.of(AlarmEvaluation.METRIC, steady(good, STEADY_MINUTES)));
    }

    private static Scenario perMinute(String breach, double bad, String healthy, double good) {
        return scenario(
                breach + ", " + CANARY_MINUTES + " min",
                Map.of(AlarmEvaluation.METRIC, steady(bad, CANARY_MINUTES)),
                healthy + ", " + STEADY_MINUTES + " min",
                Map.of(AlarmEvaluation.METRIC, steady(good, STEADY_MINUTES)));
    }

    private static List<Double> once(double value) {
        return List.of(value);
    }

    private static List<Double> steady(double value, int periods) {
        return Collections.nCopies(periods, value);
    }

    private static String ms(double millis) {
        return String.format("%.1f s", millis / 1000);
    }

    /** The function an alarm watches: the Ref of its FunctionName dimension, wherever the dimensions are. */
    private static String functionOf(Map<String, Object> properties) {
        Matcher m = Pattern.compile("Name=FunctionName, Value=\\{Ref=([A-Za-z0-9]+)}")
                .matcher(properties.toString());
        return m.find() ? m.group(1) : "";
    }

    private double timeoutMillis(String function) {
        Object own = SamTemplate.map(template.resources().get(function).get("Properties"))
                .get("Timeout");
        Object global = SamTemplate.map(
                        SamTemplate.map(template.document().get("Globals")).get("Function"))
                .get("Timeout");
        return ((Number) (own != null ? own : global)).doubleValue() * 1000;
    }

    private void writeTable(List<String> rows) throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "# Every alarm of template.yaml, evaluated as CloudWatch would (written by AlarmsTest)",
                "",
                "| alarm | rule: period, M of N, threshold (parameter default), missing data | failure | state |"
                        + " healthy traffic | state |",
                "|---|---|---|---|---|---|"));
        lines.addAll(rows);
        Path out = root.resolve("tests/target/alarms.md");
        Files.createDirectories(out.getParent());
        Files.write(out, lines);
    }
}
