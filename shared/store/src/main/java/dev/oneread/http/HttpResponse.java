package dev.oneread.http;

import dev.oneread.json.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An HTTP API (payload format 2.0) response. {@code body} is already serialised.
 *
 * <pre>{@code HttpResponse.json(200, Map.of("id", "acme"))}</pre>
 */
public record HttpResponse(int statusCode, Map<String, String> headers, String body) {
    static final String JSON_TYPE = "application/json";
    static final String PROBLEM_TYPE = "application/problem+json";

    public HttpResponse {
        headers = new LinkedHashMap<>(headers);
    }

    public static HttpResponse json(int status, Object body) {
        return new HttpResponse(status, Map.of("content-type", JSON_TYPE), Json.write(body));
    }

    public static HttpResponse ok(Object body) {
        return json(200, body);
    }

    public HttpResponse withHeader(String name, String value) {
        Map<String, String> copy = new LinkedHashMap<>(headers);
        copy.put(name, value);
        return new HttpResponse(statusCode, copy, body);
    }

    /** The response object the Lambda runtime returns to API Gateway. */
    Map<String, Object> toEvent() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("statusCode", statusCode);
        out.put("headers", headers);
        out.put("body", body == null ? "" : body);
        out.put("isBase64Encoded", false);
        return out;
    }
}
