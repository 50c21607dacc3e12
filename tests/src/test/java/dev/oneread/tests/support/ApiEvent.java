package dev.oneread.tests.support;

import dev.oneread.http.HttpApiEvent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A test's request, as the {@link HttpApiEvent} API Gateway would send for it (see events/ for real files): a
 * route, then only what the test changes. Immutable, so that a test can derive several requests from one.
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

    /** The API every test event comes through, as a deployed stage names it. */
    private static final String DOMAIN = "abc123.execute-api.us-east-1.amazonaws.com";

    private static final String USER_AGENT = "curl/8.5.0";

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

    /** The event, with the headers curl sends (and a JSON body's type and length) before the test's own. */
    public HttpApiEvent event() {
        HttpApiEvent.Builder event = HttpApiEvent.builder(method, routePath)
                .httpMethod(sentMethod)
                .api("123456789012", "abc123", DOMAIN)
                .source("203.0.113.7", "HTTP/1.1")
                .received(UUID.randomUUID().toString(), Instant.now())
                .header("accept", "application/json")
                .header("host", DOMAIN)
                .header("user-agent", USER_AGENT);
        if (body != null) {
            event.header("content-type", "application/json").header("content-length", Integer.toString(body.length()));
        }
        headers.forEach(event::header);
        pathParameters.forEach(event::pathParameter);
        query.forEach(event::query);
        if (body != null && base64) {
            event.base64Body(body);
        } else if (body != null) {
            event.body(body);
        }
        Map<String, Object> jwtClaims = effectiveClaims();
        if (jwtClaims != null) {
            event.authorizer(new HttpApiEvent.Jwt(jwtClaims, null));
        }
        return event.build();
    }

    public String json() {
        return event().toJson();
    }
}
