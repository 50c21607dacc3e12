package dev.oneread.tests;

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

/** Invokes a handler as the Lambda runtime does: event bytes in, response bytes out. */
final class Lambda {
    private Lambda() {
    }

    static Response invoke(RequestStreamHandler handler, String event) {
        TestContext context = new TestContext();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, context);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Response response = new Response(Json.readObject(out.toString(StandardCharsets.UTF_8)), context.logLines);
        checkContract(event, response);
        return response;
    }

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
        List<String> violations = contract.violations(method, routeKey, response.status(), response.contentType(),
                response.body());
        if (!violations.isEmpty()) {
            throw new AssertionError("response breaks openapi.yaml for " + routeKey + " " + response.status() + ": "
                    + violations + "\n" + response.body());
        }
    }

    /** The handler's response event, with accessors for what tests check. */
    record Response(Map<String, Object> event, List<String> logLines) {
        int status() {
            return ((Number) event.get("statusCode")).intValue();
        }

        @SuppressWarnings("unchecked")
        Map<String, String> headers() {
            return (Map<String, String>) event.get("headers");
        }

        String body() {
            return (String) event.get("body");
        }

        Map<String, Object> json() {
            return Json.readObject(body());
        }

        int dynamoCalls() {
            return Integer.parseInt(headers().get("x-dynamo-calls"));
        }

        BigDecimal dynamoCapacity() {
            return new BigDecimal(headers().get("x-dynamo-capacity"));
        }

        String contentType() {
            return headers().get("content-type");
        }
    }
}
