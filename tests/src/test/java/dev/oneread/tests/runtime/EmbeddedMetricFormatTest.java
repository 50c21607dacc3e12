package dev.oneread.tests.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import dev.oneread.functions.getworkspace.GetWorkspaceFunction;
import dev.oneread.json.Json;
import dev.oneread.runtime.FunctionContext;
import dev.oneread.tests.support.Api;
import dev.oneread.tests.support.ApiEvent;
import dev.oneread.tests.support.InjectedFaults;
import dev.oneread.tests.support.Lambda;
import dev.oneread.tests.support.TestContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Every route's log line is also a CloudWatch Embedded Metric Format document, so CloudWatch Logs extracts its
 * DynamoDB calls, consumed capacity, duration and whether it went over its cost budget as metrics (namespace oneread;
 * dimensions function and route) with no agent and no library, under Lambda's TEXT and JSON log formats alike. The
 * checks are the EMF specification's rules for the {@code _aws} metadata.
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

    @Test
    void overBudget_shouldBe0_withinTheRoutesCalls_and1_whenARetryMakesOneCallMore() {
        // GIVEN a workspace, and a GetWorkspace whose client sees its first attempt throttled (DynamoDB bills and
        // counts the refused attempt; the SDK's retry is a second call against a budget of 1 GetItem)
        String ws = Api.freshWorkspaceId("emfbudget");
        api.createWorkspace(ws, "Budget");
        ThrottleFirstAttempt throttleFirst = new ThrottleFirstAttempt();
        DynamoDbClient throttled = api.engine.functionClient("GetWorkspace", api.table, List.of(throttleFirst));
        GetWorkspaceFunction retrying = new GetWorkspaceFunction(throttled, Api.config("GetWorkspace"));

        // WHEN it is read once plainly and once through the throttled first attempt
        Map<String, Object> within =
                Json.readObject(api.getWorkspace(ws).logLines().get(0));
        Lambda.Response retried =
                Lambda.invoke(retrying, ApiEvent.of("GET", ApiEvent.WORKSPACE).path("workspaceId", ws));

        // THEN the plain read is within its budget of 1 call, and the retried one, which still succeeds, is over it
        assertThat(within)
                .containsEntry("calls", 1)
                .containsEntry("budgetCalls", 1)
                .containsEntry("overBudget", 0);
        assertThat(retried.status()).isEqualTo(200);
        assertThat(throttleFirst.attempts.get()).isEqualTo(2);
        Map<String, Object> over = Json.readObject(retried.logLines().get(0));
        assertEmf(over);
        assertThat(over)
                .containsEntry("calls", 2)
                .containsEntry("budgetCalls", 1)
                .containsEntry("overBudget", 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TEXT", "JSON"})
    void logLine_shouldStayATopLevelEmfDocument_underEitherLambdaLogFormat(String format) throws IOException {
        // GIVEN a context whose logger formats as the Java runtime does under this log format
        String ws = Api.freshWorkspaceId("emffmt");
        api.createWorkspace(ws, "Format");
        RuntimeLoggerContext context = new RuntimeLoggerContext(format);

        // WHEN a request is served
        api.handlers
                .get("GetWorkspace")
                .handleRequest(
                        new ByteArrayInputStream(ApiEvent.of("GET", ApiEvent.WORKSPACE)
                                .path("workspaceId", ws)
                                .json()
                                .getBytes(StandardCharsets.UTF_8)),
                        new ByteArrayOutputStream(),
                        context);

        // THEN what reaches CloudWatch is one event, the EMF document itself, with _aws at its root
        assertThat(context.events).hasSize(1);
        Map<String, Object> event = Json.readObject(context.events.get(0));
        assertEmf(event);
        assertThat(event)
                .containsEntry("route", "GET /workspaces/{workspaceId}")
                .containsEntry("overBudget", 0);
    }

    @Test
    void serverError_shouldCountA5xxAnswer_byTheVersionThatRan() throws IOException {
        // GIVEN a GetWorkspace whose every DynamoDB attempt is throttled, run as version 7 (a canary's new version)
        String ws = Api.freshWorkspaceId("emf5xx");
        api.createWorkspace(ws, "Errors");
        DynamoDbClient throttled =
                api.engine.functionClient("GetWorkspace", api.table, List.of(new ThrottleEveryAttempt()));
        GetWorkspaceFunction failing = new GetWorkspaceFunction(throttled, Api.config("GetWorkspace"));
        RuntimeLoggerContext version7 = new RuntimeLoggerContext("TEXT", "7");
        ByteArrayOutputStream response = new ByteArrayOutputStream();

        // WHEN it is served, and the same request is served plainly
        failing.handleRequest(
                new ByteArrayInputStream(ApiEvent.of("GET", ApiEvent.WORKSPACE)
                        .path("workspaceId", ws)
                        .json()
                        .getBytes(StandardCharsets.UTF_8)),
                response,
                version7);
        Map<String, Object> plain =
                Json.readObject(api.getWorkspace(ws).logLines().get(0));

        // THEN the throttled one is a 5xx answer, not a failed invocation (Lambda's Errors would not count it), and
        // its line counts one server error of version 7; the plain one none, of the version its context names
        int status = ((Number) Json.readObject(response.toString(StandardCharsets.UTF_8))
                        .get("statusCode"))
                .intValue();
        assertThat(status).isBetween(500, 599);
        assertThat(version7.events).hasSize(1);
        Map<String, Object> failed = Json.readObject(version7.events.get(0));
        assertEmf(failed);
        assertThat(failed).containsEntry("version", "7").containsEntry("serverError", 1);
        assertEmf(plain);
        assertThat(plain).containsEntry("version", "$LATEST").containsEntry("serverError", 0);
    }

    /** Throttles every attempt: the SDK's retries run out and the request fails. */
    private static final class ThrottleEveryAttempt implements ExecutionInterceptor {
        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            throw InjectedFaults.throttled();
        }
    }

    /** Throttles the first attempt of every call, then lets the SDK's retry through; counts the attempts. */
    private static final class ThrottleFirstAttempt implements ExecutionInterceptor {
        final AtomicInteger attempts = new AtomicInteger();

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (attempts.incrementAndGet() == 1) {
                throw InjectedFaults.throttled();
            }
        }
    }

    /**
     * A Lambda context whose logger does what the Java runtime's does with each format
     * (aws-lambda-java-runtime-interface-client: AbstractLambdaLogger, JsonLogFormatter, TextLogFormatter): under
     * JSON, {@code log(String)} becomes {@code {"timestamp","message","level","AWSRequestId"}} with the message as a
     * string; under TEXT a message without a level is left as it is; {@code log(byte[])} is never formatted.
     */
    private static final class RuntimeLoggerContext extends FunctionContext {
        final List<String> events = new ArrayList<>();
        private final boolean json;

        private final String version;

        RuntimeLoggerContext(String format) {
            this(format, "$LATEST");
        }

        RuntimeLoggerContext(String format, String version) {
            super("test", UUID.randomUUID().toString(), 1024);
            this.json = format.equals("JSON");
            this.version = version;
        }

        @Override
        public String getFunctionVersion() {
            return version;
        }

        @Override
        public int getRemainingTimeInMillis() {
            return TestContext.REMAINING_MILLIS;
        }

        @Override
        public LambdaLogger getLogger() {
            return new LambdaLogger() {
                @Override
                public void log(String message) {
                    if (json) {
                        Map<String, Object> wrapped = new LinkedHashMap<>();
                        wrapped.put("timestamp", Instant.now().toString());
                        wrapped.put("message", message);
                        wrapped.put("level", "UNDEFINED");
                        wrapped.put("AWSRequestId", getAwsRequestId());
                        events.add(Json.write(wrapped));
                    } else {
                        events.add(message.strip());
                    }
                }

                @Override
                public void log(byte[] message) {
                    events.add(new String(message, StandardCharsets.UTF_8).strip());
                }
            };
        }
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
        // the request's cost by function and route; its server error by function and version (the canary's alarm)
        assertThat(directives).hasSize(2);
        List<List<String>> dimensions = assertDirective(
                line,
                (Map<String, Object>) directives.get(0),
                List.of("calls", "capacity", "throttles", "durationMs", "overBudget"));
        assertThat(assertDirective(line, (Map<String, Object>) directives.get(1), List.of("serverError")))
                .containsExactly(List.of("function", "version"));
        return dimensions;
    }

    /** One directive's rules, with exactly {@code metricNames}; returns its dimension sets. */
    @SuppressWarnings("unchecked")
    private static List<List<String>> assertDirective(
            Map<String, Object> line, Map<String, Object> directive, List<String> metricNames) {
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
        assertThat(metrics).extracting(m -> m.get("Name")).containsExactlyElementsOf(metricNames);
        for (Map<String, Object> metric : metrics) {
            // each names a top-level number member, with a unit CloudWatch knows
            assertThat(line.get(metric.get("Name"))).as("metric " + metric).isInstanceOf(Number.class);
            assertThat(UNITS).contains((String) metric.get("Unit"));
        }
        return dimensions;
    }
}
