package dev.oneread.local.runner;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One request start-api served through a function, as the console's request log takes it.
 *
 * @param routeKey the route that matched, as in the event ({@code GET /workspaces/{workspaceId}}), for filtering
 * @param pathParameters the route's parameters ({@code workspaceId}, {@code projectId}), decoded
 * @param requestHeaders the request's headers, lower-cased (the console reads Idempotency-Key's presence)
 * @param responseHeaders the response's headers, lower-cased ({@code x-dynamo-calls}, {@code x-dynamo-capacity})
 * @param callDetail the function's calls as JSON, handed over through the runner's channel; null if none
 * @param errorBody the body of a 4xx or 5xx response, for the log to show its problem; null for any other status
 */
public record ServedRequest(
        Instant at,
        String method,
        String path,
        String function,
        String routeKey,
        Map<String, String> pathParameters,
        Map<String, String> requestHeaders,
        int status,
        double durationMs,
        Map<String, String> responseHeaders,
        String callDetail,
        String errorBody) {

    /**
     * What {@code invoke} ran, as start-api would have served it: the HTTP API event's method, path, route and
     * headers, the function's status, headers and calls. Empty for an event that is not an HTTP API request (a
     * queue's, a schedule's).
     */
    public static java.util.Optional<ServedRequest> ofInvocation(
            String functionId, Instant at, byte[] event, LocalFunction.Result result) {
        Map<String, Object> json = dev.oneread.json.Json.readObject(new String(event, StandardCharsets.UTF_8));
        if (!(json.get("requestContext") instanceof Map<?, ?> context)
                || !(context.get("http") instanceof Map<?, ?> http)
                || !(http.get("method") instanceof String method)) {
            return java.util.Optional.empty();
        }
        Map<String, Object> response = Map.of();
        try {
            response = dev.oneread.json.Json.readObject(result.responseText());
        } catch (RuntimeException notAnObject) {
            // a function that failed, or answered with a bare value: its status is below
        }
        int status = result.failed() ? 500 : response.get("statusCode") instanceof Number n ? n.intValue() : 200;
        Map<String, String> headers = new LinkedHashMap<>();
        strings(response.get("headers")).forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v));
        Object body = response.get("body");
        return java.util.Optional.of(new ServedRequest(
                at,
                method,
                json.get("rawPath") instanceof String p ? p : (String) http.get("path"),
                functionId,
                (String) json.get("routeKey"),
                strings(json.get("pathParameters")),
                strings(json.get("headers")),
                status,
                result.durationMs(),
                headers,
                result.callDetail(),
                status >= 400 && body != null ? String.valueOf(body) : null));
    }

    /** This request as JSON: what {@code invoke} posts to the console of the start-api whose engine it ran on. */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("at", at.toString());
        json.put("method", method);
        json.put("path", path);
        json.put("function", function);
        json.put("routeKey", routeKey);
        json.put("pathParameters", pathParameters);
        json.put("requestHeaders", requestHeaders);
        json.put("status", status);
        json.put("durationMs", durationMs);
        json.put("responseHeaders", responseHeaders);
        json.put("callDetail", callDetail);
        json.put("errorBody", errorBody);
        return json;
    }

    /** The request {@link #toJson} wrote; an {@link IllegalArgumentException} names what is missing. */
    public static ServedRequest fromJson(Map<String, Object> json) {
        try {
            return new ServedRequest(
                    Instant.parse((String) json.get("at")),
                    (String) Objects.requireNonNull(json.get("method"), "method"),
                    (String) Objects.requireNonNull(json.get("path"), "path"),
                    (String) json.get("function"),
                    (String) json.get("routeKey"),
                    strings(json.get("pathParameters")),
                    strings(json.get("requestHeaders")),
                    (Integer) Objects.requireNonNull(json.get("status"), "status"), // an int, never a 1e999999999
                    ((Number) json.get("durationMs")).doubleValue(),
                    strings(json.get("responseHeaders")),
                    (String) json.get("callDetail"),
                    (String) json.get("errorBody"));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a served request: " + e.getMessage(), e);
        }
    }

    private static Map<String, String> strings(Object value) {
        Map<String, String> out = new LinkedHashMap<>();
        if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
        }
        return out;
    }

    /** Who is told of each request start-api serves: the console's request log. */
    @FunctionalInterface
    public interface Observer {
        void served(ServedRequest request);

        /** A function is about to serve a request; {@link #served} follows, or {@link #abandoned} if it threw. */
        default void invoking() {}

        /** The request {@link #invoking} announced ended with no response to tell of. */
        default void abandoned() {}
    }
}
