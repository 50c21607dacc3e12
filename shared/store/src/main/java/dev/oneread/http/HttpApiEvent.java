package dev.oneread.http;

import dev.oneread.json.Json;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP API payload format 2.0 event, as API Gateway sends it to a function: the one model of it, which
 * priming, the local runner and the tests build (a function reads it as JSON: {@link ApiRequest}). Optional parts
 * ({@code cookies}, {@code queryStringParameters}, {@code pathParameters}, {@code body}, the authorizer) are null
 * when the request has none, and then left out of the JSON, as API Gateway leaves them out.
 *
 * <pre>{@code
 * byte[] event = HttpApiEvent.builder("GET", "/workspaces/{workspaceId}")
 *         .pathParameter("workspaceId", "acme")
 *         .build()
 *         .toJsonBytes();
 * }</pre>
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
    /** The payload format version of this event. */
    public static final String VERSION = "2.0";

    /** {@code requestContext}: who called, how, and which route API Gateway matched. */
    public record RequestContext(
            String accountId,
            String apiId,
            Jwt authorizer,
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

    /** {@code requestContext.authorizer.jwt}: the claims API Gateway's JWT authorizer verified, and the scopes. */
    public record Jwt(Map<String, ?> claims, List<String> scopes) {}

    public String version() {
        return VERSION;
    }

    /** An event for {@code route} ({@code /workspaces/{workspaceId}}) that API Gateway matched as {@code method}. */
    public static Builder builder(String method, String route) {
        return new Builder(method, route);
    }

    /** The event as the function reads it. */
    public byte[] toJsonBytes() {
        return toJson().getBytes(StandardCharsets.UTF_8);
    }

    /** The event as JSON, field order as API Gateway writes it. */
    public String toJson() {
        Http http = requestContext.http();
        Map<String, Object> httpJson = new LinkedHashMap<>();
        httpJson.put("method", http.method());
        httpJson.put("path", http.path());
        httpJson.put("protocol", http.protocol());
        httpJson.put("sourceIp", http.sourceIp());
        httpJson.put("userAgent", http.userAgent());
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
        context.put("http", httpJson);
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
        return Json.write(event);
    }

    private static void putPresent(Map<String, Object> event, String name, Object value) {
        if (value != null) {
            event.put(name, value);
        }
    }

    /**
     * Builds an event from what a request changes; the rest is derived as API Gateway derives it (the raw path
     * from the route and its parameters, the raw query string from the parameters, {@code http.userAgent} from
     * the header, the domain prefix from the domain). What is never set stays null, and an event without a
     * {@link #receivedAt} time has none: priming builds one without formatting a date or drawing a random id.
     */
    public static final class Builder {
        private final String routeKey;
        private final String route;
        private String httpMethod;
        private String rawPath;
        private String path;
        private String rawQueryString;
        private final List<String> cookies = new ArrayList<>();
        private final Map<String, String> headers = new LinkedHashMap<>();
        private final Map<String, String> query = new LinkedHashMap<>();
        private final Map<String, String> pathParameters = new LinkedHashMap<>();
        private String body;
        private boolean base64;
        private Jwt authorizer;
        private String accountId;
        private String apiId;
        private String domainName;
        private String protocol;
        private String sourceIp;
        private String requestId;
        private Instant receivedAt;

        private Builder(String method, String route) {
            this.routeKey = method + " " + route;
            this.route = route;
            this.httpMethod = method;
        }

        /** The method the request came with ({@code requestContext.http.method}); by default the route's own. */
        public Builder httpMethod(String method) {
            this.httpMethod = method;
            return this;
        }

        /** The path as sent and as decoded; by default both are the route with its parameters put in. */
        public Builder path(String raw, String decoded) {
            this.rawPath = raw;
            this.path = decoded;
            return this;
        }

        /** The query string as sent; by default the parameters joined with {@code &}. */
        public Builder rawQueryString(String raw) {
            this.rawQueryString = raw;
            return this;
        }

        public Builder pathParameter(String name, String value) {
            pathParameters.put(name, value);
            return this;
        }

        /** A query parameter, decoded (API Gateway joins a repeated one with commas). */
        public Builder query(String name, String value) {
            query.put(name, value);
            return this;
        }

        /** A header; API Gateway lower-cases the name. */
        public Builder header(String name, String value) {
            headers.put(name.toLowerCase(Locale.ROOT), value);
            return this;
        }

        public Builder cookie(String cookie) {
            cookies.add(cookie);
            return this;
        }

        public Builder body(String text) {
            this.body = text;
            this.base64 = false;
            return this;
        }

        /** A body API Gateway marked as base64 ({@code isBase64Encoded: true}), whatever it holds. */
        public Builder base64Body(String encoded) {
            this.body = encoded;
            this.base64 = true;
            return this;
        }

        /** What the JWT authorizer passes on; none: an API without one. */
        public Builder authorizer(Jwt jwt) {
            this.authorizer = jwt;
            return this;
        }

        /** The API the request came through: its account, id and domain name. */
        public Builder api(String account, String id, String domain) {
            this.accountId = account;
            this.apiId = id;
            this.domainName = domain;
            return this;
        }

        /** The connection the request came on. */
        public Builder source(String ip, String protocolVersion) {
            this.sourceIp = ip;
            this.protocol = protocolVersion;
            return this;
        }

        /** API Gateway's id of the request, and when it arrived. */
        public Builder received(String id, Instant at) {
            this.requestId = id;
            this.receivedAt = at;
            return this;
        }

        /** API Gateway's id of the request, for an event that keeps no time (priming). */
        public Builder requestId(String id) {
            this.requestId = id;
            return this;
        }

        public HttpApiEvent build() {
            String raw = rawPath == null ? expand(route, pathParameters) : rawPath;
            Http http = new Http(
                    httpMethod, path == null ? raw : path, protocol, sourceIp, headers.getOrDefault("user-agent", ""));
            RequestContext context = new RequestContext(
                    accountId,
                    apiId,
                    authorizer,
                    domainName,
                    domainName == null ? null : domainName.split("[.:]", 2)[0],
                    http,
                    requestId,
                    routeKey,
                    "$default",
                    receivedAt == null ? null : RequestTime.FORMAT.format(receivedAt),
                    receivedAt == null ? 0 : receivedAt.toEpochMilli());
            return new HttpApiEvent(
                    routeKey,
                    raw,
                    rawQueryString == null ? joined(query) : rawQueryString,
                    cookies.isEmpty() ? null : List.copyOf(cookies),
                    new LinkedHashMap<>(headers),
                    query.isEmpty() ? null : new LinkedHashMap<>(query),
                    context,
                    pathParameters.isEmpty() ? null : new LinkedHashMap<>(pathParameters),
                    body,
                    base64);
        }

        private static String expand(String route, Map<String, String> parameters) {
            String path = route;
            for (Map.Entry<String, String> parameter : parameters.entrySet()) {
                path = path.replace("{" + parameter.getKey() + "}", parameter.getValue())
                        .replace("{" + parameter.getKey() + "+}", parameter.getValue());
            }
            return path;
        }

        private static String joined(Map<String, String> query) {
            StringBuilder raw = new StringBuilder();
            query.forEach((name, value) -> raw.append(raw.length() == 0 ? "" : "&")
                    .append(name)
                    .append('=')
                    .append(value));
            return raw.toString();
        }
    }

    /**
     * API Gateway's {@code requestContext.time}: a holder of its own, so that an event without a time (priming's)
     * loads no date formatting, and with it no locale data.
     */
    private static final class RequestTime {
        static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
                .withZone(ZoneOffset.UTC);
    }
}
