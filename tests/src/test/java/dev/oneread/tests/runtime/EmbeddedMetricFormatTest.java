package dev.oneread.tests.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.json.Json;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every route's log line is also a CloudWatch Embedded Metric Format document, so CloudWatch Logs extracts its
 * DynamoDB calls, consumed capacity and duration as metrics (namespace oneread; dimensions function and route)
 * with no agent and no library. The checks are the EMF specification's rules for the {@code _aws} metadata.
 */
class EmbeddedMetricFormatTest {
    /** The units the EMF specification allows (CloudWatch's StandardUnit). */
    private static final Set<String> UNITS = Set.of(
            "Seconds",
            "Microseconds",
            "Milliseconds",
            "Bytes",
            "Kilobytes",
            "Megabytes",
            "Gigabytes",
            "Terabytes",
            "Bits",
            "Kilobits",
            "Megabits",
            "Gigabits",
            "Terabits",
            "Percent",
            "Count",
            "Bytes/Second",
            "Kilobytes/Second",
            "Megabytes/Second",
            "Gigabytes/Second",
            "Terabytes/Second",
            "Bits/Second",
            "Kilobits/Second",
            "Megabits/Second",
            "Gigabits/Second",
            "Terabits/Second",
            "Count/Second",
            "None");

    private final Api api = new Api();

    @Test
    void everyLogLine_shouldBeAnEmfDocument_withCallsCapacityAndDurationByFunctionAndRoute() throws IOException {
        // GIVEN a served request, a refused one, and an event that is not even JSON
        String ws = Api.freshWorkspaceId("emf");
        api.createWorkspace(ws, "EMF");
        Lambda.Response served = api.getWorkspace(ws);
        Lambda.Response missing = api.getWorkspace(Api.freshWorkspaceId("none"));
        TestContext garbage = new TestContext();
        api.handlers
                .get("GetWorkspace")
                .handleRequest(
                        new ByteArrayInputStream("not json".getBytes(StandardCharsets.UTF_8)),
                        new ByteArrayOutputStream(),
                        garbage);

        for (List<String> lines : List.of(served.logLines(), missing.logLines(), garbage.logLines)) {
            // THEN each log line passes the EMF specification's rules
            assertThat(lines).hasSize(1);
            Map<String, Object> line = Json.readObject(lines.get(0));
            List<List<String>> dimensions = assertEmf(line);
            // AND counts calls, capacity and duration by function and route (by function alone without a route)
            assertThat(line).containsEntry("function", "GetWorkspace");
            if (lines == garbage.logLines) {
                assertThat(dimensions).containsExactly(List.of("function"));
            } else {
                assertThat(dimensions).containsExactly(List.of("function", "route"));
                assertThat(line).containsEntry("route", "GET /workspaces/{workspaceId}");
            }
        }
        assertThat(Json.readObject(served.logLines().get(0))).containsEntry("calls", 1);
    }

    /** The EMF rules for one document; returns its dimension sets. */
    @SuppressWarnings("unchecked")
    private static List<List<String>> assertEmf(Map<String, Object> line) {
        assertThat(line).containsKey("_aws");
        Map<String, Object> aws = (Map<String, Object>) line.get("_aws");
        // Timestamp: milliseconds since the epoch, now
        assertThat(aws.get("Timestamp")).isInstanceOf(Number.class);
        assertThat(((Number) aws.get("Timestamp")).longValue())
                .isBetween(System.currentTimeMillis() - 60_000, System.currentTimeMillis() + 1_000);
        List<Object> directives = (List<Object>) aws.get("CloudWatchMetrics");
        assertThat(directives).hasSize(1);
        Map<String, Object> directive = (Map<String, Object>) directives.get(0);
        assertThat(directive).containsOnlyKeys("Namespace", "Dimensions", "Metrics");
        assertThat(directive.get("Namespace")).isEqualTo("oneread");
        List<List<String>> dimensions = (List<List<String>>) directive.get("Dimensions");
        assertThat(dimensions).isNotEmpty();
        for (List<String> set : dimensions) {
            // at most 30 dimensions to a set; each names a top-level string member, not empty
            assertThat(set).hasSizeBetween(1, 30);
            set.forEach(name -> assertThat(line.get(name))
                    .as("dimension " + name)
                    .isInstanceOfSatisfying(String.class, v -> assertThat(v).isNotEmpty()));
        }
        List<Map<String, Object>> metrics = (List<Map<String, Object>>) directive.get("Metrics");
        assertThat(metrics)
                .extracting(m -> m.get("Name"))
                .containsExactly("calls", "capacity", "throttles", "durationMs");
        for (Map<String, Object> metric : metrics) {
            // each names a top-level number member, with a unit CloudWatch knows
            assertThat(line.get(metric.get("Name"))).as("metric " + metric).isInstanceOf(Number.class);
            assertThat(UNITS).contains((String) metric.get("Unit"));
        }
        return dimensions;
    }
}
