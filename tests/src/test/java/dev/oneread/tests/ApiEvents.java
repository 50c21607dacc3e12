package dev.oneread.tests;

import dev.oneread.json.Json;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/** Builds HTTP API payload format 2.0 events in the shape API Gateway sends (see events/ for real files). */
final class ApiEvents {
    private ApiEvents() {
    }

    /** The claims an ordinary caller has: membership of the path's workspace; operators for POST /workspaces. */
    static Map<String, Object> defaultClaims(String method, String routePath, Map<String, String> pathParameters) {
        boolean operator = method.equals("POST") && routePath.equals("/workspaces");
        return Map.of("sub", "user-1",
                "workspaces", pathParameters.getOrDefault("workspaceId", ""),
                "scope", operator ? "openid oneread/admin" : "openid");
    }

    static String event(String method, String routePath, Map<String, String> pathParameters,
                        Map<String, String> query, String body) {
        return event(method, routePath, pathParameters, query, body, Map.of(),
                defaultClaims(method, routePath, pathParameters));
    }

    static String event(String method, String routePath, Map<String, String> pathParameters,
                        Map<String, String> query, String body, Map<String, String> extraHeaders,
                        Map<String, Object> claims) {
        String rawPath = routePath;
        for (Map.Entry<String, String> p : pathParameters.entrySet()) {
            rawPath = rawPath.replace("{" + p.getKey() + "}", p.getValue());
        }
        StringBuilder rawQuery = new StringBuilder();
        query.forEach((k, v) -> rawQuery.append(rawQuery.length() == 0 ? "" : "&").append(k).append('=').append(v));
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("accept", "application/json");
        headers.put("host", "abc123.execute-api.us-east-1.amazonaws.com");
        headers.put("user-agent", "curl/8.5.0");
        if (body != null) {
            headers.put("content-type", "application/json");
            headers.put("content-length", Integer.toString(body.length()));
        }
        extraHeaders.forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v));
        long now = System.currentTimeMillis();
        Map<String, Object> http = new LinkedHashMap<>();
        http.put("method", method);
        http.put("path", rawPath);
        http.put("protocol", "HTTP/1.1");
        http.put("sourceIp", "203.0.113.7");
        http.put("userAgent", "curl/8.5.0");
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("accountId", "123456789012");
        context.put("apiId", "abc123");
        if (claims != null) {
            Map<String, Object> jwt = new LinkedHashMap<>();
            jwt.put("claims", claims);
            jwt.put("scopes", null);
            context.put("authorizer", Map.of("jwt", jwt));
        }
        context.put("domainName", "abc123.execute-api.us-east-1.amazonaws.com");
        context.put("domainPrefix", "abc123");
        context.put("http", http);
        context.put("requestId", UUID.randomUUID().toString());
        context.put("routeKey", method + " " + routePath);
        context.put("stage", "$default");
        context.put("time", DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
                .format(ZonedDateTime.now(ZoneOffset.UTC)));
        context.put("timeEpoch", now);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", "2.0");
        event.put("routeKey", method + " " + routePath);
        event.put("rawPath", rawPath);
        event.put("rawQueryString", rawQuery.toString());
        event.put("headers", headers);
        if (!query.isEmpty()) {
            event.put("queryStringParameters", query);
        }
        if (!pathParameters.isEmpty()) {
            event.put("pathParameters", pathParameters);
        }
        event.put("requestContext", context);
        if (body != null) {
            event.put("body", body);
        }
        event.put("isBase64Encoded", false);
        return Json.write(event);
    }
}
