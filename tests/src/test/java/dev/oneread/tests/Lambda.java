package dev.oneread.tests;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.oneread.http.Json;
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
        return new Response(Json.readObject(out.toString(StandardCharsets.UTF_8)), context.logLines);
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
