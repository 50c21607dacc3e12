package dev.oneread.http;

import dev.oneread.keys.ProjectId;
import dev.oneread.keys.WorkspaceId;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An HTTP API payload format 2.0 event, reduced to what handlers use, with validated accessors: each one
 * either returns a valid value or throws an exception that {@link Problems} turns into a 400.
 *
 * <pre>{@code WorkspaceId id = request.workspaceId();  // 400 for "acme#01", "ACME", ...}</pre>
 */
public record ApiRequest(String routeKey, String method, String rawPath, Map<String, String> headers,
                         Map<String, String> queryParameters, Map<String, String> pathParameters,
                         String body, String requestId) {
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    @SuppressWarnings("unchecked")
    static ApiRequest fromEvent(Map<String, Object> event) {
        Map<String, Object> context = mapOrEmpty(event.get("requestContext"));
        Map<String, Object> http = mapOrEmpty(context.get("http"));
        String body = (String) event.get("body");
        if (body != null && Boolean.TRUE.equals(event.get("isBase64Encoded"))) {
            try {
                body = new String(Base64.getDecoder().decode(body), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                throw HttpProblemException.badRequest("body is not valid base64");
            }
        }
        return new ApiRequest(
                String.valueOf(event.getOrDefault("routeKey", "$default")),
                String.valueOf(http.getOrDefault("method", "GET")).toUpperCase(Locale.ROOT),
                String.valueOf(event.getOrDefault("rawPath", "/")),
                strings(event.get("headers"), true),
                strings(event.get("queryStringParameters"), false),
                strings(event.get("pathParameters"), false),
                body,
                String.valueOf(context.getOrDefault("requestId", "")));
    }

    public WorkspaceId workspaceId() {
        return WorkspaceId.of(pathParameters.get("workspaceId"));
    }

    public ProjectId projectId() {
        return ProjectId.of(pathParameters.get("projectId"));
    }

    /** {@code ?limit=}: 1 to 100, default 20. */
    public int limit() {
        String raw = queryParameters.get("limit");
        if (raw == null) {
            return DEFAULT_LIMIT;
        }
        if (!raw.matches("^[0-9]{1,3}$") || Integer.parseInt(raw) < 1 || Integer.parseInt(raw) > MAX_LIMIT) {
            throw HttpProblemException.badRequest("limit must be an integer from 1 to " + MAX_LIMIT);
        }
        return Integer.parseInt(raw);
    }

    /** {@code ?cursor=}, decoded to the store position it stands for. */
    public Optional<String> cursor() {
        String raw = queryParameters.get("cursor");
        return raw == null ? Optional.empty() : Optional.of(Cursors.decode(raw));
    }

    /** The body as a JSON object; a missing, non-JSON or non-object body is a 400. */
    public Map<String, Object> jsonBody() {
        String contentType = headers.getOrDefault("content-type", "");
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (!mediaType.equals("application/json")) {
            throw new HttpProblemException(415, "content-type must be application/json");
        }
        if (body == null || body.isBlank()) {
            throw HttpProblemException.badRequest("body must be a JSON object");
        }
        return Json.readObject(body);
    }

    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapOrEmpty(Object value) {
        return value instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    }

    private static Map<String, String> strings(Object value, boolean lowerCaseKeys) {
        if (!(value instanceof Map<?, ?> map)) {
            return Map.of();
        }
        java.util.LinkedHashMap<String, String> out = new java.util.LinkedHashMap<>();
        map.forEach((k, v) -> {
            if (k != null && v != null) {
                String key = lowerCaseKeys ? String.valueOf(k).toLowerCase(Locale.ROOT) : String.valueOf(k);
                out.put(key, String.valueOf(v));
            }
        });
        return java.util.Collections.unmodifiableMap(out);
    }
}
