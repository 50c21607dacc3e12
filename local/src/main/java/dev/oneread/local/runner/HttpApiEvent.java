package dev.oneread.local.runner;

import dev.oneread.json.Json;
import dev.oneread.local.auth.JwtAuthorizer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One HTTP API payload format 2.0 event, as API Gateway sends it to a function. Optional parts
 * ({@code cookies}, {@code queryStringParameters}, {@code pathParameters}, {@code body}, the authorizer) are
 * null when the request has none, and then left out of the JSON, as API Gateway leaves them out.
 *
 * <pre>{@code byte[] payload = event.toJsonBytes();}</pre>
 */
public record HttpApiEvent(
        String routeKey,
        String rawPath,
        String rawQueryString,
        List<String> cookies,
        Map<String, String> headers,
        Map<String, String> queryStringParameters,
        RequestContext requestContext,
        Map<String, String> pathParameters,
        String body,
        boolean isBase64Encoded) {
    /** The payload format version this runner builds. */
    public static final String VERSION = "2.0";

    /** {@code requestContext}: who called, how, and which route API Gateway matched. */
    public record RequestContext(
            String accountId,
            String apiId,
            JwtAuthorizer authorizer,
            String domainName,
            String domainPrefix,
            Http http,
            String requestId,
            String routeKey,
            String stage,
            String time,
            long timeEpoch) {}

    /** {@code requestContext.http}. */
    public record Http(String method, String path, String protocol, String sourceIp, String userAgent) {}

    public String version() {
        return VERSION;
    }

    /** The event as the function reads it: JSON, field order as API Gateway writes it. */
    public byte[] toJsonBytes() {
        return Json.write(toJsonObject()).getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, Object> toJsonObject() {
        Map<String, Object> http = new LinkedHashMap<>();
        http.put("method", requestContext.http().method());
        http.put("path", requestContext.http().path());
        http.put("protocol", requestContext.http().protocol());
        http.put("sourceIp", requestContext.http().sourceIp());
        http.put("userAgent", requestContext.http().userAgent());
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("accountId", requestContext.accountId());
        context.put("apiId", requestContext.apiId());
        if (requestContext.authorizer() != null) {
            Map<String, Object> jwt = new LinkedHashMap<>();
            jwt.put("claims", requestContext.authorizer().claims());
            jwt.put("scopes", requestContext.authorizer().scopes());
            context.put("authorizer", Map.of("jwt", jwt));
        }
        context.put("domainName", requestContext.domainName());
        context.put("domainPrefix", requestContext.domainPrefix());
        context.put("http", http);
        context.put("requestId", requestContext.requestId());
        context.put("routeKey", requestContext.routeKey());
        context.put("stage", requestContext.stage());
        context.put("time", requestContext.time());
        context.put("timeEpoch", requestContext.timeEpoch());
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", VERSION);
        event.put("routeKey", routeKey);
        event.put("rawPath", rawPath);
        event.put("rawQueryString", rawQueryString);
        putPresent(event, "cookies", cookies);
        event.put("headers", headers);
        putPresent(event, "queryStringParameters", queryStringParameters);
        event.put("requestContext", context);
        putPresent(event, "pathParameters", pathParameters);
        putPresent(event, "body", body);
        event.put("isBase64Encoded", isBase64Encoded);
        return event;
    }

    private static void putPresent(Map<String, Object> event, String name, Object value) {
        if (value != null) {
            event.put(name, value);
        }
    }
}
