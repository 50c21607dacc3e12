package dev.oneread.tests.support;

import dev.oneread.json.Json;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * One HTTP API payload format 2.0 event, in the shape API Gateway sends (see events/ for real files). Every
 * event a test sends is built here: a route, then only what the test changes.
 *
 * <pre>{@code
 * String event = ApiEvent.of("GET", ApiEvent.WORKSPACE).path("workspaceId", "acme").json();
 * }</pre>
 *
 * @param ordinaryCaller true until {@link #claims} or {@link #withoutAuthorizer} is called: the claims are
 *                       then those of a member of the path's workspace (an operator for POST /workspaces)
 * @param claims         the JWT claims when not an ordinary caller; null for no authorizer context at all
 * @param sentMethod     the method in {@code requestContext.http}: the route's own, unless a test sends
 *                       the event a catch-all route would
 */
public record ApiEvent(
        String method,
        String routePath,
        Map<String, String> pathParameters,
        Map<String, String> query,
        Map<String, String> headers,
        String body,
        boolean base64,
        boolean ordinaryCaller,
        Map<String, Object> claims,
        String sentMethod) {
    public static final String WORKSPACES = "/workspaces";
    public static final String WORKSPACE = "/workspaces/{workspaceId}";
    public static final String PROJECTS = "/workspaces/{workspaceId}/projects";
    public static final String PROJECT = "/workspaces/{workspaceId}/projects/{projectId}";
    public static final String COLLECTION = "/workspaces/{workspaceId}/collection";
    /** The operators' listing across workspaces (GET /workspaces is the registry). */
    public static final String ALL_PROJECTS = "/projects";

    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

    /** A request on this route from an ordinary caller, with no parameters, headers or body yet. */
    public static ApiEvent of(String method, String routePath) {
        return new ApiEvent(method, routePath, Map.of(), Map.of(), Map.of(), null, false, true, null, method);
    }

    public ApiEvent path(Map<String, String> parameters) {
        return new ApiEvent(
                method,
                routePath,
                Map.copyOf(parameters),
                query,
                headers,
                body,
                base64,
                ordinaryCaller,
                claims,
                sentMethod);
    }

    public ApiEvent path(String name, String value) {
        Map<String, String> parameters = new LinkedHashMap<>(pathParameters);
        parameters.put(name, value);
        return path(parameters);
    }

    public ApiEvent query(Map<String, String> parameters) {
        return new ApiEvent(
                method,
                routePath,
                pathParameters,
                Map.copyOf(parameters),
                headers,
                body,
                base64,
                ordinaryCaller,
                claims,
                sentMethod);
    }

    /** Extra headers, named as the client wrote them (API Gateway lower-cases them). */
    public ApiEvent headers(Map<String, String> extra) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.putAll(extra);
        return new ApiEvent(
                method, routePath, pathParameters, query, all, body, base64, ordinaryCaller, claims, sentMethod);
    }

    public ApiEvent header(String name, String value) {
        return headers(Map.of(name, value));
    }

    public ApiEvent body(String text) {
        return new ApiEvent(
                method, routePath, pathParameters, query, headers, text, false, ordinaryCaller, claims, sentMethod);
    }

    /** A body API Gateway marked as base64 ({@code isBase64Encoded: true}), whatever it holds. */
    public ApiEvent base64Body(String encoded) {
        return new ApiEvent(
                method, routePath, pathParameters, query, headers, encoded, true, ordinaryCaller, claims, sentMethod);
    }

    public ApiEvent claims(Map<String, Object> jwtClaims) {
        return new ApiEvent(
                method,
                routePath,
                pathParameters,
                query,
                headers,
                body,
                base64,
                false,
                Map.copyOf(jwtClaims),
                sentMethod);
    }

    /** No {@code requestContext.authorizer}: an API deployed without the JWT authorizer. */
    public ApiEvent withoutAuthorizer() {
        return new ApiEvent(method, routePath, pathParameters, query, headers, body, base64, false, null, sentMethod);
    }

    /** The same route, arriving with another HTTP method (a catch-all route, a hand-made event). */
    public ApiEvent sentWithMethod(String httpMethod) {
        return new ApiEvent(
                method, routePath, pathParameters, query, headers, body, base64, ordinaryCaller, claims, httpMethod);
    }

    public String routeKey() {
        return method + " " + routePath;
    }

    /** The claims an ordinary caller has: membership of the path's workspace; operators on the operators' routes. */
    public Map<String, Object> effectiveClaims() {
        if (!ordinaryCaller) {
            return claims;
        }
        boolean operator = routePath.equals(WORKSPACES) || routePath.equals(ALL_PROJECTS); // the operators' routes
        return Map.of(
                "sub",
                "user-1",
                "workspaces",
                pathParameters.getOrDefault("workspaceId", ""),
                "scope",
                operator ? "openid oneread/admin" : "openid oneread/api");
    }

    public String json() {
        String rawPath = routePath;
        for (Map.Entry<String, String> p : pathParameters.entrySet()) {
            rawPath = rawPath.replace("{" + p.getKey() + "}", p.getValue());
        }
        StringBuilder rawQuery = new StringBuilder();
        query.forEach((k, v) -> rawQuery.append(rawQuery.length() == 0 ? "" : "&")
                .append(k)
                .append('=')
                .append(v));
        Map<String, Object> allHeaders = new LinkedHashMap<>();
        allHeaders.put("accept", "application/json");
        allHeaders.put("host", "abc123.execute-api.us-east-1.amazonaws.com");
        allHeaders.put("user-agent", "curl/8.5.0");
        if (body != null) {
            allHeaders.put("content-type", "application/json");
            allHeaders.put("content-length", Integer.toString(body.length()));
        }
        headers.forEach((k, v) -> allHeaders.put(k.toLowerCase(Locale.ROOT), v));
        Map<String, Object> http = new LinkedHashMap<>();
        http.put("method", sentMethod);
        http.put("path", rawPath);
        http.put("protocol", "HTTP/1.1");
        http.put("sourceIp", "203.0.113.7");
        http.put("userAgent", "curl/8.5.0");
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("accountId", "123456789012");
        context.put("apiId", "abc123");
        Map<String, Object> jwtClaims = effectiveClaims();
        if (jwtClaims != null) {
            Map<String, Object> jwt = new LinkedHashMap<>();
            jwt.put("claims", jwtClaims);
            jwt.put("scopes", null);
            context.put("authorizer", Map.of("jwt", jwt));
        }
        context.put("domainName", "abc123.execute-api.us-east-1.amazonaws.com");
        context.put("domainPrefix", "abc123");
        context.put("http", http);
        context.put("requestId", UUID.randomUUID().toString());
        context.put("routeKey", routeKey());
        context.put("stage", "$default");
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        context.put("time", REQUEST_TIME.format(now));
        context.put("timeEpoch", now.toInstant().toEpochMilli());
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", "2.0");
        event.put("routeKey", routeKey());
        event.put("rawPath", rawPath);
        event.put("rawQueryString", rawQuery.toString());
        event.put("headers", allHeaders);
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
        event.put("isBase64Encoded", base64);
        return Json.write(event);
    }
}
