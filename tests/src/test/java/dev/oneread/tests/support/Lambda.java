package dev.oneread.tests.support;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.json.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Invokes a handler as the Lambda runtime does: event bytes in, response bytes out, with a {@link TestContext}
 * that keeps the log lines. Every test invocation of a function goes through here.
 */
public final class Lambda {
    private Lambda() {}

    public static Response invoke(RequestStreamHandler handler, ApiEvent event) {
        return invoke(handler, event.json());
    }

    /** As {@link #invoke(RequestStreamHandler, ApiEvent)}, in an invocation with only this much time left. */
    public static Response invoke(RequestStreamHandler handler, ApiEvent event, int remainingMillis) {
        return invoke(handler, event.json(), new TestContext(remainingMillis));
    }

    /** An API Gateway event as text, such as a file in events/. */
    public static Response invoke(RequestStreamHandler handler, String event) {
        return invoke(handler, event, new TestContext());
    }

    private static Response invoke(RequestStreamHandler handler, String event, TestContext context) {
        Run run = run(handler, event, context);
        Response response = new Response(run.output(), run.logLines());
        checkContract(event, response);
        return response;
    }

    /** Runs a job (a function that is not behind the HTTP API) on this input. */
    public static Run invokeJob(RequestStreamHandler handler, Map<String, Object> input) {
        return run(handler, Json.write(input), new TestContext());
    }

    /** Runs a job with {@code remainingMillis} left of its invocation, as Lambda's context says. */
    public static Run invokeJob(RequestStreamHandler handler, Map<String, Object> input, int remainingMillis) {
        return run(handler, Json.write(input), new TestContext(remainingMillis));
    }

    private static Run run(RequestStreamHandler handler, String event, TestContext context) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, context);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Run(Json.readObject(out.toString(StandardCharsets.UTF_8)), context.logLines);
    }

    /** What one invocation wrote: the JSON it returned and its log lines. */
    public record Run(Map<String, Object> output, List<String> logLines) {}

    private static OpenApiContract contract;

    /**
     * Every response any test sees is checked against openapi.yaml: a status, content type or body the
     * contract does not document fails the test that produced it. Events that API Gateway could never send
     * (a method other than the route's) are left out: they have no operation to check against.
     */
    @SuppressWarnings("unchecked")
    private static void checkContract(String event, Response response) {
        Map<String, Object> parsed = Json.readObject(event);
        String routeKey = (String) parsed.get("routeKey");
        Object http = ((Map<String, Object>) parsed.getOrDefault("requestContext", Map.of())).get("http");
        String method = http instanceof Map<?, ?> h ? String.valueOf(h.get("method")) : null;
        if (routeKey == null || method == null || !routeKey.startsWith(method + " ")) {
            return;
        }
        synchronized (Lambda.class) {
            if (contract == null) {
                contract = OpenApiContract.load(TestEngine.get().root.resolve("openapi.yaml"));
            }
        }
        List<String> violations =
                contract.violations(method, routeKey, response.status(), response.contentType(), response.body());
        if (!violations.isEmpty()) {
            throw new AssertionError("response breaks openapi.yaml for " + routeKey + " " + response.status() + ": "
                    + violations + "\n" + response.body());
        }
    }

    /** The handler's response event, with accessors for what tests check. */
    public record Response(Map<String, Object> event, List<String> logLines) {
        public int status() {
            return ((Number) event.get("statusCode")).intValue();
        }

        @SuppressWarnings("unchecked")
        public Map<String, String> headers() {
            return (Map<String, String>) event.get("headers");
        }

        public String body() {
            return (String) event.get("body");
        }

        public Map<String, Object> json() {
            return Json.readObject(body());
        }

        public int dynamoCalls() {
            return Integer.parseInt(headers().get("x-dynamo-calls"));
        }

        public BigDecimal dynamoCapacity() {
            return new BigDecimal(headers().get("x-dynamo-capacity"));
        }

        public String contentType() {
            return headers().get("content-type");
        }

        /** The cursor of the next page of a list route; null on the last page. */
        public String nextCursor() {
            return (String) json().get("nextCursor");
        }

        /** The ids of the objects in one list field of the body ({@code items}, {@code projects}). */
        @SuppressWarnings("unchecked")
        public List<String> ids(String listField) {
            return ((List<Map<String, Object>>) json().get(listField))
                    .stream().map(i -> (String) i.get("id")).toList();
        }
    }
}
