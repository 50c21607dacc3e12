package dev.oneread.http;

import com.amazonaws.services.lambda.runtime.Context;
import dev.oneread.json.Json;
import dev.oneread.operations.CostBudget;
import dev.oneread.operations.Descriptor;
import dev.oneread.runtime.CallDetailSink;
import dev.oneread.runtime.FunctionConfig;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.InvocationDeadline;
import dev.oneread.store.exceptions.UndecodableItemException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The frame every function runs in: parse the event, give the handler a fresh {@link CallTally}, turn any
 * exception into a problem response, add the read audit headers, and write one structured log line.
 *
 * <pre>{@code
 * endpoint.serve(input, output, context, (request, tally) ->
 *         HttpResponse.ok(Representations.workspace(store.getWorkspace(request.workspaceId(), tally))));
 * }</pre>
 */
public final class HttpEndpoint {
    /** Left of the Lambda's time after the last DynamoDB call: to map, serialise and write the response. */
    static final Duration RESPONSE_MARGIN = Duration.ofMillis(300);

    private final FunctionConfig config;
    private final Cursors cursors;
    private final Optional<Descriptor> operation;

    /** A frame with no operation: its requests are logged with no budget. */
    public HttpEndpoint(FunctionConfig config) {
        this(config, Optional.empty());
    }

    /** @param operation the function's operation, whose route's budget each request is logged against */
    public HttpEndpoint(FunctionConfig config, Optional<Descriptor> operation) {
        this.config = config;
        this.cursors = config.cursorKeys() == null ? null : new Cursors(config.cursorKeys(), Clock.systemUTC());
        this.operation = operation;
    }

    /** The handler's part of one request. */
    @FunctionalInterface
    public interface Logic {
        HttpResponse handle(ApiRequest request, CallTally tally);
    }

    /**
     * Serves one request: writes the response event to {@code output}, and returns the response it wrote, for a
     * caller that needs its outcome (priming reads the status here rather than parse what it wrote).
     */
    public HttpResponse serve(InputStream input, OutputStream output, Context context, Logic logic) throws IOException {
        long started = System.nanoTime();
        CallTally tally = new CallTally(InvocationDeadline.in(
                context == null
                        ? null
                        : Duration.ofMillis(context.getRemainingTimeInMillis()).minus(RESPONSE_MARGIN)));
        String requestId = context == null ? "" : context.getAwsRequestId();
        ApiRequest request = null;
        String apiRequestId = "";
        String route = "";
        RuntimeException failure = null;
        HttpResponse response;
        try {
            request = ApiRequest.fromEvent(Json.readObject(input), cursors);
            apiRequestId = request.requestId();
            route = request.routeKey();
            requireRouteMethod(request);
            response = logic.handle(request, tally);
        } catch (RuntimeException e) {
            failure = e;
            response = Problems.fromException(e);
        }
        if (config.readAudit()) {
            response = response.withHeader("x-dynamo-calls", Integer.toString(tally.calls()))
                    .withHeader("x-dynamo-capacity", tally.capacity().toPlainString())
                    .withHeader("x-dynamo-throttles", Integer.toString(tally.throttles()));
        }
        output.write(Json.write(response.toEvent()).getBytes(StandardCharsets.UTF_8));
        handOverCallDetail(context, tally);
        log(
                context,
                route,
                response.statusCode(),
                tally,
                allowance(request),
                started,
                requestId,
                apiRequestId,
                failure);
        return response;
    }

    /**
     * The local runner's channel for the console (see {@link CallDetailSink}): every call of this invocation with
     * keys and expression values. A deployed function hands nothing over, and its log line carries counts and
     * capacity only.
     */
    private static void handOverCallDetail(Context context, CallTally tally) {
        CallDetailSink.of(context).ifPresent(sink -> {
            List<Object> calls = new java.util.ArrayList<>();
            tally.auditedCalls().forEach(call -> calls.add(call.toJson()));
            sink.accept(Json.write(Map.of("calls", calls)));
        });
    }

    /**
     * The calls this request may make by its route's {@link CostBudget} (its operation's), or none for an event that
     * did not parse or is not the operation's route. Only the function's own operation is read: its cold path never
     * loads the list of every operation.
     */
    private Optional<CostBudget.Allowance> allowance(ApiRequest request) {
        if (request == null) {
            return Optional.empty();
        }
        return operation
                .filter(served -> served.route().key().equals(request.routeKey()))
                .map(Descriptor::budget)
                .map(budget -> budget.allowance(
                        config.shardPlan(),
                        request.pathParameters(),
                        request.header("Idempotency-Key").isPresent()));
    }

    /**
     * A function serves one route. An event whose method is not that route's (a catch-all route, a
     * misconfigured integration, a hand-made event) is refused rather than run as if it were.
     */
    private static void requireRouteMethod(ApiRequest request) {
        String routeKey = request.routeKey();
        int space = routeKey.indexOf(' ');
        if (space > 0) {
            String method = routeKey.substring(0, space);
            if (!method.equals("ANY") && !method.equals(request.method())) {
                throw new HttpProblemException(405, "this resource does not support " + request.method());
            }
        }
    }

    /** The namespace of the metrics every log line carries. */
    static final String METRICS_NAMESPACE = "oneread";

    /**
     * CloudWatch Embedded Metric Format: the metadata that makes CloudWatch Logs extract the line's own {@code calls},
     * {@code capacity}, {@code throttles}, {@code durationMs} and {@code overBudget} as metrics, by function and
     * route, with no agent and no client library (the EMF specification). A line without a route (an event that did
     * not parse) is counted by function alone: a dimension value may not be empty.
     *
     * <p>A second directive counts {@code serverError} by function and version. To Lambda a 5xx answer is a
     * successful invocation (its Errors metric counts only what throws, times out or runs out of memory), so a new
     * version that answers 500 would pass a canary whose rollback alarms watch Errors alone; by version, its own
     * alarm watches the version being deployed, as the Errors alarm does with ExecutedVersion.
     */
    private static Map<String, Object> embeddedMetrics(String route) {
        Map<String, Object> directive = new LinkedHashMap<>();
        directive.put("Namespace", METRICS_NAMESPACE);
        directive.put("Dimensions", List.of(route.isEmpty() ? List.of("function") : List.of("function", "route")));
        directive.put(
                "Metrics",
                List.of(
                        Map.of("Name", "calls", "Unit", "Count"),
                        Map.of("Name", "capacity", "Unit", "None"),
                        Map.of("Name", "throttles", "Unit", "Count"),
                        Map.of("Name", "durationMs", "Unit", "Milliseconds"),
                        Map.of("Name", "overBudget", "Unit", "Count")));
        Map<String, Object> byVersion = new LinkedHashMap<>();
        byVersion.put("Namespace", METRICS_NAMESPACE);
        byVersion.put("Dimensions", List.of(List.of("function", "version")));
        byVersion.put("Metrics", List.of(Map.of("Name", "serverError", "Unit", "Count")));
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("Timestamp", System.currentTimeMillis());
        metadata.put("CloudWatchMetrics", List.of(directive, byVersion));
        return metadata;
    }

    /** The version that ran (Lambda's context: a number behind an alias, $LATEST otherwise). */
    private static String version(Context context) {
        String version = context == null ? null : context.getFunctionVersion();
        return version == null || version.isEmpty() ? "$LATEST" : version;
    }

    private void log(
            Context context,
            String route,
            int status,
            CallTally tally,
            Optional<CostBudget.Allowance> allowance,
            long started,
            String requestId,
            String apiRequestId,
            RuntimeException failure) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("level", status >= 500 ? "ERROR" : "INFO");
        line.put("function", config.functionName());
        line.put("route", route);
        line.put("status", status);
        line.put("version", version(context));
        line.put("serverError", status >= 500 ? 1 : 0);
        line.put("calls", tally.calls());
        line.put("maxInFlight", tally.maxInFlight());
        line.put("capacity", tally.capacity());
        line.put("throttles", tally.throttles());
        // Calls alone decide overBudget: they are exact ceilings (the design's one call, or one per partition of a
        // hot tenant), so a 1 means the request did more than its access pattern promises (retries of a throttled or
        // failed call, a tenant's migration in flight). Capacity is not held against it: its ceilings assume item
        // sizes (CostBudget.CAPACITY_ASSUMES), and a grown item is not an access pattern gone wrong. Every line
        // carries the metric, 0 where no budget applies, so that a sum over a route counts its requests.
        allowance.ifPresent(a -> line.put("budgetCalls", a.calls()));
        line.put("overBudget", allowance.filter(a -> tally.calls() > a.calls()).isPresent() ? 1 : 0);
        line.put(
                "partitions",
                new java.util.TreeSet<>(tally.partitions().stream()
                        .filter(java.util.Objects::nonNull)
                        .toList()));
        line.put("durationMs", (System.nanoTime() - started) / 1_000_000.0);
        line.put("requestId", requestId);
        line.put("apiRequestId", apiRequestId); // API Gateway's id, to join with its access log
        if (status >= 500 && failure != null) {
            // For operators only: the caller's response carries none of this.
            line.put("error", failure.getClass().getName());
            line.put("cause", failure.getCause() == null ? null : String.valueOf(failure.getCause()));
            if (failure instanceof UndecodableItemException undecodable) {
                // The one place the item's key is written: enough to find it and fix or remove it by hand.
                Map<String, Object> item = new LinkedHashMap<>();
                item.put("partition", undecodable.key().partition());
                item.put("sort", undecodable.key().sort());
                item.put("reason", undecodable.reason());
                line.put("undecodableItem", item);
            }
        }
        line.put("_aws", embeddedMetrics(route));
        String text = Json.write(line);
        if (context != null && context.getLogger() != null) {
            // Bytes, not a String, so that the line stays a top-level EMF document under either log format. AWS:
            // "For Lambda to send your function's application logs to CloudWatch in structured JSON format, your
            // function must use the following built-in logging tools ... Java - the LambdaLogger logger or Log4j2"
            // (Lambda Developer Guide, "Configuring JSON and plain text log formats"): under LogFormat JSON the
            // runtime (aws-lambda-java-runtime-interface-client, AbstractLambdaLogger) wraps log(String) as
            // {"timestamp","message":"<the line, escaped>","level","AWSRequestId"}, where CloudWatch would find no
            // _aws at the root and extract nothing, while "there is no formatting for byte[] messages" in either
            // format (TEXT leaves a message without a level as it is). CloudWatch "extracts metrics from any log
            // events that follow the embedded metric format specification" ("Using the embedded metric format with
            // Lambda"), which wants the _aws member at the document's root. So AWS_LAMBDA_LOG_FORMAT, which the
            // runtime reads to pick its formatter, need not be read here: EmbeddedMetricFormatTest runs both.
            context.getLogger().log((text + "\n").getBytes(StandardCharsets.UTF_8));
        } else {
            System.out.println(text);
        }
    }
}
